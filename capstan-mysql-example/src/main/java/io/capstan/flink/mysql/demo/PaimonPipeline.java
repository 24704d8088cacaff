package io.capstan.flink.mysql.demo;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The lakehouse example's Flink SQL: a Paimon catalog on a local directory, one Paimon primary-key
 * table per shop table, one {@code capstan-mysql} table per shop table, and one job that inserts
 * each into its Paimon table (a statement set). Paimon commits what the job wrote at every Flink
 * checkpoint, so a batch query over the Paimon tables sees the changelog up to the last checkpoint.
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

    /**
     * A Paimon primary-key table: an upsert of the MySQL table, one bucket (the example's job runs
     * at parallelism 1).
     */
    static String createPaimonTable(LakehouseTables.ShopTable t) {
        return "CREATE TABLE IF NOT EXISTS "
                + CATALOG
                + "."
                + DATABASE
                + "."
                + t.name()
                + " ("
                + t.flinkColumns()
                + ", PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1')";
    }

    /** The capstan-mysql table that reads {@code t}, in the session's default catalog. */
    static String createSourceTable(
            LakehouseTables.ShopTable t, MySqlConnectionConfig c, String database, int serverId) {
        Map<String, String> o = OrdersPipeline.capstanOptions(c, database, t.name(), serverId);
        o.put("scan.startup.mode", "initial");
        return "CREATE TEMPORARY TABLE default_catalog.default_database.mysql_"
                + t.name()
                + " ("
                + t.flinkColumns()
                + ", PRIMARY KEY (id) NOT ENFORCED) "
                + OrdersPipeline.withClause(o);
    }

    static String insert(LakehouseTables.ShopTable t) {
        return "INSERT INTO "
                + CATALOG
                + "."
                + DATABASE
                + "."
                + t.name()
                + " SELECT * FROM default_catalog.default_database.mysql_"
                + t.name();
    }

    /** The statements, in order, that set up the catalog, the tables and the job. */
    static List<String> setupStatements(
            Path warehouse, MySqlConnectionConfig c, String database, int firstServerId) {
        List<String> s = new ArrayList<>();
        s.add(createCatalog(warehouse));
        s.add("CREATE DATABASE IF NOT EXISTS " + CATALOG + "." + DATABASE);
        int serverId = firstServerId;
        for (LakehouseTables.ShopTable t : LakehouseTables.ALL) {
            s.add(createPaimonTable(t));
            s.add(createSourceTable(t, c, database, serverId++));
        }
        return s;
    }

    /** Sets everything up in {@code tEnv} and submits the one job; returns once it is submitted. */
    void start(
            TableEnvironment tEnv,
            Path warehouse,
            MySqlConnectionConfig c,
            String database,
            int firstServerId) {
        for (String ddl : setupStatements(warehouse, c, database, firstServerId)) {
            tEnv.executeSql(ddl);
        }
        StatementSet inserts = tEnv.createStatementSet();
        for (LakehouseTables.ShopTable t : LakehouseTables.ALL) {
            inserts.addInsertSql(insert(t));
        }
        tEnv.getConfig().set("pipeline.name", JOB_NAME);
        TableResult result = inserts.execute();
        job = result.getJobClient().orElseThrow();
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
