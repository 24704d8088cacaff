package io.capstan.flink.mysql.demo;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Row count and checksum of every shop table, in MySQL (one query over JDBC) and in Paimon (one
 * Flink batch query over the Paimon catalog, as a user would query the lakehouse).
 */
final class LakehouseCheck {

    /** A table's row count and checksum. */
    record Tally(long rows, BigDecimal checksum) {
        boolean same(Tally o) {
            return o != null && rows == o.rows && checksum.compareTo(o.checksum) == 0;
        }
    }

    private final TableEnvironment batch;

    /** A batch table environment with the Paimon catalog on {@code warehouse}. */
    LakehouseCheck(Path warehouse) {
        Configuration conf = new Configuration();
        conf.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        batch =
                TableEnvironment.create(
                        EnvironmentSettings.newInstance()
                                .inBatchMode()
                                .withConfiguration(conf)
                                .build());
        batch.executeSql(PaimonPipeline.createCatalog(warehouse));
    }

    /** The query over every table of {@code schema} (MySQL's database or Paimon's catalog.db). */
    static String tallySql(String schema) {
        return LakehouseTables.ALL.stream()
                .map(
                        t ->
                                "SELECT '"
                                        + t.name()
                                        + "' AS t, COUNT(*) AS n, "
                                        + t.checksum()
                                        + " AS s FROM "
                                        + schema
                                        + "."
                                        + t.name())
                .collect(Collectors.joining(" UNION ALL "));
    }

    static Map<String, Tally> mysql(Connection c, String database) throws SQLException {
        Map<String, Tally> m = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(tallySql(database))) {
            while (rs.next()) {
                m.put(
                        rs.getString(1),
                        new Tally(rs.getLong(2), LakehouseTables.orZero(rs.getBigDecimal(3))));
            }
        }
        return m;
    }

    Map<String, Tally> paimon() throws Exception {
        Map<String, Tally> m = new LinkedHashMap<>();
        try (CloseableIterator<Row> it =
                batch.executeSql(tallySql(PaimonPipeline.CATALOG + "." + PaimonPipeline.DATABASE))
                        .collect()) {
            while (it.hasNext()) {
                Row r = it.next();
                m.put(
                        (String) r.getField(0),
                        new Tally(
                                ((Number) r.getField(1)).longValue(),
                                LakehouseTables.orZero((BigDecimal) r.getField(2))));
            }
        }
        return m;
    }

    static boolean same(Map<String, Tally> a, Map<String, Tally> b) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (Map.Entry<String, Tally> e : a.entrySet()) {
            if (!e.getValue().same(b.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }
}
