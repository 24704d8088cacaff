package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.source.it.ChangeLineDeserializer;
import io.capstan.flink.mysql.source.it.ExactlyOnceCheck;
import io.capstan.flink.mysql.source.it.RunningJobs;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.Workload;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A restored job streams on as its state began, whatever {@code scan.startup.mode} says then
 * (docs/operations.md, "Restoring a job"): a later start timestamp drops nothing, a stream-only job
 * restored as {@code initial} still halts on an XA transaction prepared before its start, and a
 * snapshotted job restored as {@code latest-offset} still halts on a table renamed into its list; a
 * job started at a binlog file and position restores after that file was purged.
 */
class RestoreStartModeIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    @TempDir Path sinkDir;
    @TempDir Path savepoints;

    @RegisterExtension final RunningJobs jobs = new RunningJobs();

    private JobClient start(String tableRegex, StartupOptions mode, String savepoint)
            throws Exception {
        StreamExecutionEnvironment env = SourceJobs.env(300, savepoint);
        CapstanMySqlSource<String> source =
                SourceJobs.builder(DB, mode, new ChangeLineDeserializer())
                        .tableList(DB.name() + "\\." + tableRegex)
                        .build();
        SourceJobs.pipeline(env, source, sinkDir);
        JobClient job = env.executeAsync("restore-start-mode");
        jobs.add(job);
        return job;
    }

    private String stopWithSavepoint(JobClient job) throws Exception {
        return job.stopWithSavepoint(
                        false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                .get();
    }

    private void awaitCommitted(String line) throws Exception {
        SourceJobs.await(
                line + " committed",
                Duration.ofMinutes(2),
                () -> {
                    try {
                        return SourceJobs.committed(sinkDir).contains(line);
                    } catch (java.io.IOException e) {
                        return false;
                    }
                });
    }

    private static CapstanHaltException haltOf(JobClient job) {
        return RunningJobs.haltOf(job, Duration.ofSeconds(90));
    }

    /**
     * Restored with a later {@code scan.startup.timestamp-millis}, the stream still drops only what
     * the first start dropped: the transactions committed while the job was stopped, before the new
     * timestamp, arrive (they used to be dropped while their GTIDs joined the processed set).
     */
    @Test
    void aLaterStartTimestampOnRestoreDropsNothing() throws Exception {
        DB.execute(Workload.createTable("ts_t"));
        Workload w = new Workload(DB, "t");
        w.insert("ts_t", 1, 1, 1); // before the start timestamp: dropped
        w.expected().clear();
        Thread.sleep(50);
        JobClient first = start("ts_t", StartupOptions.timestamp(System.currentTimeMillis()), null);
        w.insert("ts_t", 2, 5, 2);
        awaitCommitted("ts_t|c|5|1");
        String savepoint = stopWithSavepoint(first);

        w.insert("ts_t", 6, 10, 1); // while stopped, before the restore's timestamp
        Thread.sleep(50);
        JobClient second =
                start("ts_t", StartupOptions.timestamp(System.currentTimeMillis()), savepoint);
        w.insert("ts_t", 11, 12, 1);
        awaitCommitted("ts_t|c|12|1");
        Thread.sleep(1_500); // a duplicate would show
        second.cancel().get();
        ExactlyOnceCheck.assertExactlyOnce(w.expected(), SourceJobs.committed(sinkDir));
    }

    /**
     * A job started at a binlog file and position streams from exactly there, and restores with the
     * same start after the file was purged: the position is translated only when a new job plans
     * its split, never on restore.
     */
    @Test
    void aFilePositionStartRestoresAfterItsFileWasPurged() throws Exception {
        DB.execute(Workload.createTable("fp_t"));
        Workload w = new Workload(DB, "f");
        w.insert("fp_t", 1, 1, 1); // before the start position: not streamed
        w.expected().clear();
        String file;
        long pos;
        try (Connection c = DB.openRootConnection();
                Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SHOW MASTER STATUS")) {
            rs.next();
            file = rs.getString("File");
            pos = rs.getLong("Position");
        }
        StartupOptions start = StartupOptions.specificOffset(file, pos);
        w.insert("fp_t", 2, 5, 2);
        JobClient first = start("fp_t", start, null);
        awaitCommitted("fp_t|c|5|1");
        String savepoint = stopWithSavepoint(first);

        DB.server().purgeBinaryLogs(); // the start file leaves the server
        JobClient second = start("fp_t", start, savepoint);
        w.insert("fp_t", 6, 8, 1);
        awaitCommitted("fp_t|c|8|1");
        Thread.sleep(1_500); // a duplicate would show
        second.cancel().get();
        ExactlyOnceCheck.assertExactlyOnce(w.expected(), SourceJobs.committed(sinkDir));
    }

    /**
     * A {@code latest-offset} job restored as {@code initial} read no snapshot: the commit of an XA
     * transaction prepared before its start still halts (it used to be taken as held in chunks that
     * never existed, and its rows were lost).
     */
    @Test
    void aStreamOnlyJobRestoredAsInitialStillHaltsOnAnXaPreparedBeforeItsStart() throws Exception {
        DB.execute(Workload.createTable("xa_t"));
        try (Connection c = DB.openRootConnection();
                Statement st = c.createStatement()) {
            st.execute("XA START 'rsm-xa'");
            st.execute("INSERT INTO xa_t VALUES (1, 1, 1, 'xa')");
            st.execute("XA END 'rsm-xa'");
            st.execute("XA PREPARE 'rsm-xa'");
        }
        try {
            JobClient first = start("xa_t", StartupOptions.latest(), null);
            Workload w = new Workload(DB, "x");
            awaitWhileInserting(w, "xa_t", 100);
            String savepoint = stopWithSavepoint(first);

            JobClient second = start("xa_t", StartupOptions.initial(), savepoint);
            DB.execute("XA COMMIT 'rsm-xa'");
            CapstanHaltException halt = haltOf(second);
            assertThat(halt.reason()).isEqualTo(HaltReason.XA_PREPARED_BEFORE_START);
        } finally {
            // still prepared if the test failed early: it would block the database's drop
            catchThrowable(() -> DB.execute("XA ROLLBACK 'rsm-xa'"));
        }
    }

    /**
     * An {@code initial} job restored as {@code latest-offset} snapshotted its tables: a table
     * renamed into its list still halts (it used to be captured from the rename, as in a
     * stream-only job, and its rows never arrived).
     */
    @Test
    void aSnapshottedJobRestoredAsLatestOffsetStillHaltsOnATableRenamedIn() throws Exception {
        DB.execute(
                Workload.createTable("rn_1"),
                Workload.createTable("rn_staging"),
                "INSERT INTO rn_staging VALUES (1, 1, 1, 'kept')");
        Workload w = new Workload(DB, "r");
        w.insert("rn_1", 1, 1, 1);
        JobClient first = start("rn_\\d+", StartupOptions.initial(), null);
        awaitCommitted("rn_1|c|1|1");
        awaitWhileInserting(w, "rn_1", 100); // streaming, past the handoff
        String savepoint = stopWithSavepoint(first);

        JobClient second = start("rn_\\d+", StartupOptions.latest(), savepoint);
        DB.execute("RENAME TABLE rn_staging TO rn_2");
        CapstanHaltException halt = haltOf(second);
        assertThat(halt.reason()).isEqualTo(HaltReason.TABLE_ENTERED_SELECTION);
        assertThat(halt.getMessage()).contains(DB.name() + ".rn_2");
    }

    /**
     * Inserts rows from {@code seq} on into {@code table}, one at a time, until the job has
     * committed one: it streams (a {@code latest-offset} start misses the rows before it).
     */
    private void awaitWhileInserting(Workload w, String table, long seq) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        for (long i = seq; System.nanoTime() < deadline; i++) {
            w.insert(table, i, i, 1);
            Thread.sleep(500);
            for (String line : SourceJobs.committed(sinkDir)) {
                if (line.startsWith(table + "|c|") && Long.parseLong(line.split("\\|")[2]) >= seq) {
                    return;
                }
            }
        }
        throw new AssertionError("the job did not stream " + table);
    }
}
