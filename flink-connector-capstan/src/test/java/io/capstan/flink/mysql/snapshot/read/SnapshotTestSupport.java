package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcBoundaryQueries;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcKeyValues;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcTableKeyMetadataReader;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.ChunkKeyResolver;
import io.capstan.flink.mysql.snapshot.key.KeyColumn;
import io.capstan.flink.mysql.snapshot.key.TableKeyMetadata;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.data.GenericRowData;

/** Shared steps of the snapshot ITs, all through the least-privileged connector user. */
final class SnapshotTestSupport {

    private SnapshotTestSupport() {}

    static ChunkKey resolve(MySqlConnectionConfig config, TableId table, Optional<String> chunkKeyColumn)
            throws SQLException {
        try (Connection c = JdbcConnections.open(config)) {
            return ChunkKeyResolver.resolve(JdbcTableKeyMetadataReader.read(c, table), chunkKeyColumn);
        }
    }

    static List<String> columns(MySqlConnectionConfig config, TableId table) throws SQLException {
        try (Connection c = JdbcConnections.open(config)) {
            TableKeyMetadata m = JdbcTableKeyMetadataReader.read(c, table);
            List<String> names = new ArrayList<>();
            m.columns().forEach(col -> names.add(col.name()));
            return names;
        }
    }

    /**
     * A stand-in for the types branch's {@code RowConverter.fromJdbc} until it lands: key columns
     * in their Flink internal form (so the gate and the comparator see what they will see in
     * production), the other columns as the driver returns them.
     */
    static JdbcRowDecoder decoder(ChunkKey key, int columnCount) {
        return rs -> {
            GenericRowData row = new GenericRowData(columnCount);
            for (int k = 0; k < key.arity(); k++) {
                KeyColumn kc = key.column(k);
                row.setField(kc.rowIndex(), JdbcKeyValues.readColumn(key, k, rs, kc.rowIndex() + 1));
            }
            for (int i = 0; i < columnCount; i++) {
                if (row.getField(i) == null) {
                    row.setField(i, rs.getObject(i + 1));
                }
            }
            return row;
        };
    }

    static TableReadSpec spec(MySqlConnectionConfig config, ChunkKey key) throws SQLException {
        List<String> cols = columns(config, key.table());
        return new TableReadSpec(key, cols, decoder(key, cols.size()));
    }

    static JdbcBoundaryQueries boundaryQueries(Connection c) {
        return new JdbcBoundaryQueries(c);
    }

    static String gtidExecuted(Connection c) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT @@global.gtid_executed")) {
            rs.next();
            return rs.getString(1).replaceAll("\\s", "");
        }
    }
}
