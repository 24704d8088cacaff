package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.source.it.ChangeLineDeserializer;
import io.capstan.flink.mysql.source.it.ExactlyOnceCheck;
import io.capstan.flink.mysql.source.it.FailAtCounts;
import io.capstan.flink.mysql.source.it.RunningJobs;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.Workload;
import io.capstan.flink.mysql.testing.MariaDbServer;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;
import io.capstan.flink.mysql.testing.ReplicationSetup;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The start modes of a job on MariaDB's own GTIDs ({@code gtid_strict_mode = ON}): a start at a
 * MariaDB GTID position ({@code @@gtid_binlog_pos}) streams exactly the transactions after it, and
 * a start timestamp exactly those committed from it; a position whose transactions were purged
 * halts with {@code data_gap}, and a binlog file and position with {@code invalid_start_position}
 * naming {@code BINLOG_GTID_POS} (whose answer then starts the job exactly there), both before any
 * row is emitted; a transaction whose sequence number does not grow in its domain (strict mode
 * turned off) halts the stream with {@code gtid_order_broken}, before any of its rows, after every
 * earlier row exactly once. Skipped without {@code mariadb-server-core}.
 */
class MariaDbGtidStartsIT {

    private static final int SERVER_ID = 31;
    private static final int ORDER_SERVER_ID = 32;

    @RegisterExtension
    static final MySqlTestDatabase DB =
            MySqlTestDatabase.onServerOfItsOwn(
                    () -> {
                        Assumptions.assumeTrue(MariaDbServer.isInstalled(), MariaDbServer.MISSING);
                        return MariaDbServer.startForCapture(SERVER_ID, "--gtid-strict-mode=ON");
                    });

    /** A server of its own for the case that turns strict mode off and writes out of order. */
    @RegisterExtension
    static final MySqlTestDatabase ORDER_DB =
            MySqlTestDatabase.onServerOfItsOwn(
                    () -> {
                        Assumptions.assumeTrue(MariaDbServer.isInstalled(), MariaDbServer.MISSING);
                        return MariaDbServer.startForCapture(
                                ORDER_SERVER_ID, "--gtid-strict-mode=ON");
                    });

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    @TempDir Path sinkDir;

    @RegisterExtension final RunningJobs jobs = new RunningJobs();

    @BeforeEach
    void noInjectedFailuresAndStrictMode() {
        assertThat(DB.server().queryStringAsRoot("SELECT @@global.gtid_strict_mode"))
                .isEqualTo("1");
        assertThat(ORDER_DB.server().queryStringAsRoot("SELECT @@global.gtid_strict_mode"))
                .isEqualTo("1");
    }

    private JobClient start(MySqlTestDatabase db, String table, StartupOptions mode)
            throws Exception {
        StreamExecutionEnvironment env = SourceJobs.env(200, null);
        CapstanMySqlSource<String> source =
                SourceJobs.builder(db, mode, new ChangeLineDeserializer())
                        .tableList(db.name() + "\\." + table)
                        .build();
        SourceJobs.pipeline(env, source, sinkDir);
        JobClient job = env.executeAsync("mariadb-gtid-starts");
        jobs.add(job);
        return job;
    }

    private void awaitCommitted(String line) throws Exception {
        SourceJobs.await(
                line + " committed",
                Duration.ofSeconds(60),
                () -> {
                    try {
                        return SourceJobs.committed(sinkDir).contains(line);
                    } catch (java.io.IOException e) {
                        return false;
                    }
                });
    }

    /** Streams until {@code last} is committed, a little longer (a duplicate would show), stops. */
    private List<String> streamUntil(JobClient job, String last) throws Exception {
        awaitCommitted(last);
        Thread.sleep(1_000);
        job.cancel().get(30, TimeUnit.SECONDS);
        return SourceJobs.committed(sinkDir);
    }

    private static CapstanHaltException haltOf(JobClient job) {
        return RunningJobs.haltOf(job, Duration.ofSeconds(60));
    }

    /** The server's MariaDB GTID position, {@code @@gtid_binlog_pos}. */
    private static String position(MySqlTestDatabase db) {
        String position = ReplicationSetup.position(db.server());
        assertThat(position).matches("\\d+-\\d+-\\d+");
        return position;
    }

    @Test
    void aGtidPositionStartStreamsExactlyTheTransactionsAfterIt() throws Exception {
        DB.execute(Workload.createTable("gp_t"));
        Workload first = new Workload(DB, "g");
        first.insert("gp_t", 1, 12, 3);
        String between = position(DB);
        assertThat(between).startsWith("0-" + SERVER_ID + "-");
        Workload second = new Workload(DB, "g");
        second.insert("gp_t", 13, 24, 3);
        second.bumpVersion("gp_t", 1, 4, 2); // rows of the first batch, changed after the start

        JobClient job = start(DB, "gp_t", StartupOptions.gtidSet(between));
        List<String> out = streamUntil(job, "gp_t|u|4|1>2|4>4");

        ExactlyOnceCheck.assertExactlyOnce(second.expected(), out);
    }

    @Test
    void aGtidPositionWhoseTransactionsWerePurgedHaltsWithDataGapBeforeAnyRow() throws Exception {
        DB.execute(Workload.createTable("pg_t"));
        String before = position(DB);
        Workload purged = new Workload(DB, "p");
        purged.insert("pg_t", 1, 6, 2);
        String oldestFileStart = position(DB);
        DB.server().executeAsRoot("FLUSH BINARY LOGS");
        List<String> files = DB.server().binaryLogs();
        DB.server().purgeBinaryLogsTo(files.get(files.size() - 1));
        Workload kept = new Workload(DB, "p");
        kept.insert("pg_t", 7, 9, 1); // served from the file left: a start would emit them

        JobClient job = start(DB, "pg_t", StartupOptions.gtidSet(before));
        CapstanHaltException halt = haltOf(job);

        assertThat(halt.reason()).isEqualTo(HaltReason.DATA_GAP);
        // checked before the dump, against the state the server's oldest file starts from (not
        // only the server's refusal of the dump, which knows no such state)
        assertThat(halt.getMessage())
                .contains("'" + before + "'")
                .contains("purged")
                .contains("'" + oldestFileStart + "'");
        assertThat(FailAtCounts.seen()).as("records the source emitted").isZero();
        assertThat(SourceJobs.committed(sinkDir)).isEmpty();
    }

    @Test
    void aTimestampStartStreamsOnlyTransactionsCommittedFromIt() throws Exception {
        DB.execute(Workload.createTable("ts_t"));
        Workload old = new Workload(DB, "t");
        old.insert("ts_t", 1, 10, 5);
        Thread.sleep(1_100); // binlog commit times have second precision in event headers
        long from = System.currentTimeMillis();
        Thread.sleep(1_100);
        Workload recent = new Workload(DB, "t");
        recent.insert("ts_t", 11, 20, 5);
        recent.bumpVersion("ts_t", 1, 3, 3); // rows written before the timestamp, changed after

        JobClient job = start(DB, "ts_t", StartupOptions.timestamp(from));
        List<String> out = streamUntil(job, "ts_t|u|3|1>2|3>3");

        ExactlyOnceCheck.assertExactlyOnce(recent.expected(), out);
    }

    @Test
    void aFileAndPositionStartHaltsNamingBinlogGtidPosWhoseAnswerStartsThere() throws Exception {
        DB.execute(Workload.createTable("fp_t"));
        Workload before = new Workload(DB, "f");
        before.insert("fp_t", 1, 3, 1);
        String file;
        long pos;
        try (Connection c = DB.openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW MASTER STATUS")) {
            assertThat(rs.next()).isTrue();
            file = rs.getString("File");
            pos = rs.getLong("Position");
        }
        Workload after = new Workload(DB, "f");
        after.insert("fp_t", 4, 9, 2); // a start at the position would emit them

        CapstanHaltException halt =
                haltOf(start(DB, "fp_t", StartupOptions.specificOffset(file, pos)));

        assertThat(halt.reason()).isEqualTo(HaltReason.INVALID_START_POSITION);
        assertThat(halt.getMessage())
                .contains("gtid_strict_mode = ON")
                .contains("StartupOptions.gtidSet")
                .contains("BINLOG_GTID_POS('" + file + "', " + pos + ")");
        assertThat(FailAtCounts.seen()).as("records the source emitted").isZero();
        assertThat(SourceJobs.committed(sinkDir)).isEmpty();

        // the remedy: the position MariaDB gives for the file and offset starts exactly there
        String translated =
                DB.server()
                        .queryStringAsRoot("SELECT BINLOG_GTID_POS('" + file + "', " + pos + ")");
        JobClient job = start(DB, "fp_t", StartupOptions.gtidSet(translated));
        List<String> out = streamUntil(job, "fp_t|c|9|1");
        ExactlyOnceCheck.assertExactlyOnce(after.expected(), out);
    }

    @Test
    void aSequenceNumberThatDoesNotGrowInItsDomainHaltsWithGtidOrderBroken() throws Exception {
        MySqlServer server = ORDER_DB.server();
        ORDER_DB.execute(Workload.createTable("ob_t"));
        Workload w = new Workload(ORDER_DB, "o");
        JobClient job = start(ORDER_DB, "ob_t", StartupOptions.gtidSet(position(ORDER_DB)));
        w.insert("ob_t", 1, 6, 2);
        awaitCommitted("ob_t|c|6|1");

        String last = position(ORDER_DB);
        long sequence = Long.parseLong(last.substring(last.lastIndexOf('-') + 1));
        String outOfOrder = "0-" + ORDER_SERVER_ID + "-" + (sequence - 2);
        server.executeAsRoot("SET GLOBAL gtid_strict_mode = OFF");
        CapstanHaltException halt;
        try {
            // strict mode off, in order: streamed as before
            w.insert("ob_t", 7, 7, 1);
            awaitCommitted("ob_t|c|7|1");
            server.executeAsRoot(
                    "SET SESSION gtid_seq_no = " + (sequence - 2),
                    "INSERT INTO `" + ORDER_DB.name() + "`.ob_t VALUES (100, 100, 1, 'o')");
            assertThat(ReplicationSetup.position(server)).isEqualTo(outOfOrder);
            halt = haltOf(job);
        } finally {
            server.executeAsRoot("SET GLOBAL gtid_strict_mode = ON");
        }

        assertThat(halt.reason()).isEqualTo(HaltReason.GTID_ORDER_BROKEN);
        assertThat(halt.getMessage()).contains(outOfOrder);
        ExactlyOnceCheck.assertExactlyOnce(w.expected(), SourceJobs.committed(sinkDir));
        assertThat(FailAtCounts.seen())
                .as("records the source emitted: the out-of-order row is not one")
                .isEqualTo(w.expected().size());
    }
}
