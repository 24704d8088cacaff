package io.capstan.flink.mysql.demo;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.CapstanMySqlSourceBuilder;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.route.RoutedTable;
import io.capstan.flink.mysql.route.TableRoutes;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The lakehouse example's job: a Paimon catalog on a local directory, and one {@code capstan-mysql}
 * source reading all the shop's tables through {@link TableRoutes} (one snapshot plan, one binlog
 * reader, however many tables), split into one changelog per table, each written by Flink SQL's
 * Table API into a Paimon primary-key table created from the columns discovery found. Paimon
 * commits what the job wrote at every Flink checkpoint, so a batch query over the Paimon tables
 * sees the changelog up to the last checkpoint.
 */
final class PaimonPipeline implements AutoCloseable {

    static final String CATALOG = "lake";
    static final String DATABASE = "shop";
    static final String JOB_NAME = "capstan-mysql lakehouse example: MySQL shop into Paimon";

    private volatile JobClient job;

    /**
     * The Paimon catalog on {@code warehouse}, a local directory (no server, no Hadoop cluster).
     */
    static String createCatalog(Path warehouse) {
        return "CREATE CATALOG "
                + CATALOG
                + " WITH ('type' = 'paimon', 'warehouse' = '"
                + warehouse.toUri()
                + "')";
    }

    /** The source's table list: the shop's tables, as one regular expression. */
    static String tableList(String database) {
        return database
                + "\\.("
                + LakehouseTables.ALL.stream()
                        .map(LakehouseTables.ShopTable::name)
                        .collect(Collectors.joining("|"))
                + ")";
    }

    /**
     * A Paimon primary-key table with the columns discovery found (their Flink types, as
     * docs/types.md maps MySQL's), one bucket (the example's job runs at parallelism 1).
     */
    static String createPaimonTable(RoutedTable t) {
        RowType row = t.rowType();
        StringJoiner columns = new StringJoiner(", ");
        for (RowType.RowField f : row.getFields()) {
            columns.add("`" + f.getName() + "` " + f.getType().asSerializableString());
        }
        return "CREATE TABLE IF NOT EXISTS "
                + paimonTable(t)
                + " ("
                + columns
                + ", PRIMARY KEY ("
                + t.primaryKey().stream().map(k -> "`" + k + "`").collect(Collectors.joining(", "))
                + ") NOT ENFORCED) WITH ('bucket' = '1')";
    }

    static String paimonTable(RoutedTable t) {
        return CATALOG + "." + DATABASE + "." + t.id().table();
    }

    /** The capstan source's settings, before discovery and the deserializer. */
    static CapstanMySqlSourceBuilder<RowData> sourceBuilder(
            MySqlConnectionConfig c, String database, int serverId) {
        return CapstanMySqlSource.<RowData>builder()
                .hostname(c.hostname())
                .port(c.port())
                .username(c.username())
                .password(c.password())
                .databaseList(database)
                .tableList(tableList(database))
                .serverId(serverId)
                .startupOptions(StartupOptions.initial())
                // a quiet binlog connection still hears from the server every second, and the
                // server notices a closed connection within a second
                .heartbeatInterval(Duration.ofSeconds(1));
    }

    /**
     * Discovers the shop's tables, creates their Paimon tables and submits the one job; returns the
     * routed tables once it is submitted.
     */
    List<RoutedTable> start(
            LocalFlinkTables.Ready flink,
            Path warehouse,
            MySqlConnectionConfig c,
            String database,
            int serverId)
            throws Exception {
        StreamTableEnvironment tEnv = flink.tables();
        tEnv.executeSql(createCatalog(warehouse));
        tEnv.executeSql("CREATE DATABASE IF NOT EXISTS " + CATALOG + "." + DATABASE);
        CapstanMySqlSourceBuilder<RowData> builder = sourceBuilder(c, database, serverId);
        TableRoutes routes = TableRoutes.discover(builder);
        DataStream<RowData> all =
                flink.env()
                        .fromSource(
                                builder.deserializer(routes.deserializer()).build(),
                                WatermarkStrategy.noWatermarks(),
                                "capstan-mysql " + database)
                        .uid("capstan-source");
        StreamStatementSet inserts = tEnv.createStatementSet();
        for (Map.Entry<TableId, DataStream<Row>> e : routes.split(all).entrySet()) {
            RoutedTable t = routes.table(e.getKey());
            tEnv.executeSql(createPaimonTable(t));
            Schema schema =
                    Schema.newBuilder()
                            .fromRowDataType(t.dataType())
                            .primaryKey(t.primaryKey())
                            .build();
            inserts.add(tEnv.fromChangelogStream(e.getValue(), schema).insertInto(paimonTable(t)));
        }
        inserts.attachAsDataStream();
        job = flink.env().executeAsync(JOB_NAME);
        return routes.tables();
    }

    /** Null while running, else why the job ended. */
    String endedBecause() {
        JobClient j = job;
        if (j == null) {
            return null;
        }
        try {
            var status = j.getJobStatus().get(10, TimeUnit.SECONDS);
            if (!status.isGloballyTerminalState()) {
                return null;
            }
            try {
                j.getJobExecutionResult().get(10, TimeUnit.SECONDS);
                return "the job ended (" + status + ")";
            } catch (Exception e) {
                return "the job failed: " + ShopDemo.describe(e);
            }
        } catch (Exception e) {
            return null; // cannot tell now; the next look may
        }
    }

    /** Cancels the job and waits until it has ended, so its binlog connections are closed. */
    @Override
    public void close() {
        JobClient j = job;
        if (j == null) {
            return;
        }
        try {
            j.cancel().get(10, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (System.nanoTime() < deadline
                    && !j.getJobStatus().get(5, TimeUnit.SECONDS).isTerminalState()) {
                Thread.sleep(50);
            }
        } catch (Exception ignored) {
            // already ended, or the local cluster is gone with it
        }
    }
}
