package io.capstan.flink.mysql.source.snapshot;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.TwoPhaseFileSink;
import io.capstan.flink.mysql.source.reader.CapstanReaderMetrics;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The handoff test of {@link SnapshotHandoffExactlyOnceIT} for string keys in non-binary
 * collations, whose order at the cursor gate comes from the server's weights: a table keyed by a
 * stored generated string made from the id, writers inserting, updating, moving and deleting during
 * the snapshot and after it, start mode {@code initial} at parallelism 2, checkpoints every 300 ms,
 * 3 failures injected in the snapshot and 2 in the stream; the applied two-phase output must equal
 * the table, with no duplicate, gap or stale image ({@link ChangelogCheck}).
 *
 * <p>The keys are chosen so that Java's order of the texts differs from the collation's almost
 * everywhere (upper case before lower case, accented letters after {@code z}), so a gate that
 * placed a change in its chunk by comparing texts would consult the wrong chunk's G. In the two
 * paired cases ids {@code 2s} and {@code 2s + 1} spell one key two ways the collation holds equal,
 * and the writers turn rows into their twin spelling (see {@link VersionedWriters#pairedKeys}); the
 * test counts those moves made while the gate was surely active: after the first snapshot row
 * reached the output and while fewer than a tenth of the rows had, so most chunks (more rows than
 * the pipeline holds in flight) were still unread and every such change reaches the gate before it
 * retires. The reader's {@code gateKeysWeighed} counter shows the server was asked for weights.
 */
class CollatedKeyHandoffExactlyOnceIT {
    private static final Logger LOG =
            LoggerFactory.getLogger(CollatedKeyHandoffExactlyOnceIT.class);

    private static final int ROWS = 50_000;
    private static final int CHUNK = 1_000;

    private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension
    static final MiniClusterExtension FLINK = SourceJobs.miniCluster(2, REPORTER);

    @TempDir Path sinkDir;

    /** The tables: a key column definition and key made from {@code id}. */
    enum Keyed {
        /** A UUID-like CHAR(36) in the server default collation: lower case for even ids. */
        UUID_0900_AI_CI(true) {
            @Override
            String keyColumns() {
                return "k CHAR(36) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci AS ("
                        + key("id")
                        + ") STORED NOT NULL, PRIMARY KEY (k)";
            }

            @Override
            String key(String id) {
                String m = "CONVERT(MD5(" + id + " DIV 2) USING utf8mb4)";
                String uuid =
                        String.format(
                                "CONCAT_WS('-', SUBSTR(%1$s, 1, 8), SUBSTR(%1$s, 9, 4),"
                                        + " SUBSTR(%1$s, 13, 4), SUBSTR(%1$s, 17, 4),"
                                        + " SUBSTR(%1$s, 21, 12))",
                                m);
                return "IF(" + id + " % 2 = 1, UPPER(" + uuid + "), " + uuid + ")";
            }
        },
        /**
         * A VARCHAR(64) in utf8mb4_general_ci (PAD SPACE): {@code abc-<digits>}, {@code e-<digits>}
         * or {@code é-<digits>} for even ids, and for the odd twin {@code ABC-}, {@code É-} or
         * {@code E-}, some with a trailing space.
         */
        VARIANTS_GENERAL_CI(true) {
            @Override
            String keyColumns() {
                return "k VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci AS ("
                        + key("id")
                        + ") STORED NOT NULL, PRIMARY KEY (k)";
            }

            @Override
            String key(String id) {
                return String.format(
                        "CONCAT(ELT(1 + %1$s %% 3, IF(%2$s, 'ABC', 'abc'), IF(%2$s, 'É', 'e'),"
                                + " IF(%2$s, 'E', 'é')), '-', REVERSE(CAST(%1$s AS CHAR)),"
                                + " IF(%2$s AND %1$s %% 2 = 0, ' ', ''))",
                        "(" + id + " DIV 2)", "(" + id + " % 2 = 1)");
            }
        },
        /** (tenant VARCHAR(32) latin1_swedish_ci, id): tenants in several cases and accents. */
        TENANT_LATIN1_SWEDISH_CI(false) {
            @Override
            String keyColumns() {
                return "tenant VARCHAR(32) CHARACTER SET latin1 COLLATE latin1_swedish_ci AS ("
                        + key("id")
                        + ") STORED NOT NULL, PRIMARY KEY (tenant, id)";
            }

            @Override
            String key(String id) {
                return "ELT(1 + "
                        + id
                        + " % 11, 'acme', 'ACME', 'Acme', 'åsa', 'Åsa', 'ÅSA', 'öberg', 'Öberg',"
                        + " 'éclair', 'Eclair', 'ÉCLAIR')";
            }
        };

        final boolean paired;

        Keyed(boolean paired) {
            this.paired = paired;
        }

        abstract String keyColumns();

        /** The key (or its string part) of the row {@code id}, an SQL expression. */
        abstract String key(String id);

        String createTable() {
            return "CREATE TABLE vt (id BIGINT NOT NULL UNIQUE, seq BIGINT NOT NULL,"
                    + " ver INT NOT NULL, payload VARCHAR(64), "
                    + keyColumns()
                    + ")";
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Keyed.class)
    void snapshotThenBinlogExactlyOnceAcrossFiveInjectedFailures(Keyed keyed) throws Exception {
        long started = System.nanoTime();
        DB.execute("DROP TABLE IF EXISTS vt", keyed.createTable());
        VersionedWriters.fill(DB, "vt", ROWS);
        if (keyed.paired) {
            assertTwinsAreOneKeySpelledTwoWays(keyed);
        }

        long seed = System.nanoTime();
        Random random = new Random(seed);
        TreeSet<Long> readPoints = new TreeSet<>();
        while (readPoints.size() < 3) {
            readPoints.add(ROWS / 20L + random.nextInt(ROWS * 17 / 20));
        }
        TreeSet<Long> changePoints = new TreeSet<>();
        while (changePoints.size() < 2) {
            changePoints.add(300L + random.nextInt(2_000));
        }
        LOG.info(
                "{}: failure points: snapshot reads {}, binlog changes {} (seed {})",
                keyed,
                readPoints,
                changePoints,
                seed);
        FailInPhases.arm(readPoints, changePoints);

        VersionedWriters writers = new VersionedWriters(DB, "vt", 2, ROWS, 1);
        if (keyed.paired) {
            writers.pairedKeys(
                    () ->
                            FailInPhases.distinctReads() > 0
                                    && FailInPhases.distinctReads() < ROWS / 10);
        }
        writers.start(seed);

        StreamExecutionEnvironment env = SourceJobs.env(300, null);
        SnapshotJobs.pipeline(
                env,
                SnapshotJobs.source(DB, StartupOptions.initial()).chunkSize(CHUNK).build(),
                sinkDir,
                2);
        JobClient job = env.executeAsync("collated-key-handoff-" + keyed);
        AtomicLong weighed = new AtomicLong();
        try {
            SourceJobs.await(
                    "3 failures in the snapshot and 2 in the stream",
                    Duration.ofMinutes(3),
                    sampling(
                            job.getJobID(),
                            weighed,
                            () ->
                                    FailInPhases.firedInSnapshot() == 3
                                            && FailInPhases.firedInStream() == 2
                                            && FailInPhases.distinctChanges() > 3_000));
            writers.stop();
            LOG.info(
                    "{}: writers stopped after {} transactions ({} key moves, {} twin moves, {}"
                            + " of them while the gate was active)",
                    keyed,
                    writers.transactions(),
                    writers.keyMoves(),
                    writers.twinMoves(),
                    writers.twinMovesInWindow());
            Map<Long, long[]> table = VersionedWriters.read(DB, "vt");
            try {
                SourceJobs.await(
                        "the output to equal the table",
                        Duration.ofMinutes(1),
                        sampling(
                                job.getJobID(),
                                weighed,
                                () ->
                                        SnapshotHandoffExactlyOnceIT.sameRows(
                                                ChangelogCheck.apply(committed()), table)));
            } catch (AssertionError timedOut) {
                LOG.warn(
                        "{}: the output never equalled the table; the checks below say why", keyed);
            }
            Thread.sleep(1_500); // more checkpoints: a duplicate arriving late would show
            assertNoLookupsOnceRetired(job.getJobID(), weighed);
        } finally {
            job.cancel().get();
        }
        Map<Long, long[]> table = VersionedWriters.read(DB, "vt");
        ChangelogCheck check = ChangelogCheck.apply(committed());
        LOG.info(
                "{}: output {} snapshot reads, {} binlog changes, {} key values weighed at the"
                        + " gate; took {} s",
                keyed,
                check.reads(),
                check.changes(),
                weighed.get(),
                (System.nanoTime() - started) / 1_000_000_000);
        assertThat(check.violations())
                .as("violations (first of %s)", check.violations().size())
                .isEmpty();
        assertThat(SnapshotHandoffExactlyOnceIT.sameRows(check, table))
                .as("applied output equals the table")
                .isTrue();
        assertThat(FailInPhases.readsAfterAChange())
                .as("snapshot reads after a binlog change")
                .isZero();
        assertThat(check.reads()).isGreaterThan(ROWS / 2);
        assertThat(writers.keyMoves()).isPositive();
        assertThat(weighed.get()).as("key values weighed by the server at the gate").isPositive();
        if (keyed.paired) {
            assertThat(writers.twinMovesInWindow())
                    .as("twin moves while the gate was active")
                    .isPositive();
        }
    }

    /**
     * The twins {@code 2s} and {@code 2s + 1} differ in bytes, yet the table refuses the second as
     * a duplicate of the first: one key under the collation, as the workload needs.
     */
    private static void assertTwinsAreOneKeySpelledTwoWays(Keyed keyed) throws Exception {
        try (Connection c = DB.openRootConnection();
                Statement s = c.createStatement()) {
            for (long pair = 1; pair <= 12; pair++) {
                long twin = 2 * pair + 1;
                try (ResultSet rs =
                        s.executeQuery(
                                "SELECT BINARY "
                                        + keyed.key(String.valueOf(twin - 1))
                                        + " = BINARY "
                                        + keyed.key(String.valueOf(twin)))) {
                    rs.next();
                    assertThat(rs.getInt(1)).as("twin spellings differ in bytes").isZero();
                }
                assertThatThrownBy(
                                () ->
                                        s.executeUpdate(
                                                "INSERT INTO vt (id, seq, ver) VALUES ("
                                                        + twin
                                                        + ", 0, 1)"))
                        .as("the twin of an existing row is a duplicate key")
                        .isInstanceOf(SQLIntegrityConstraintViolationException.class);
            }
        }
    }

    /**
     * Once the stream has caught up with the writers, every chunk's G is processed and the gate has
     * retired: a further transaction on the table streams without a single weight lookup.
     */
    private void assertNoLookupsOnceRetired(JobID job, AtomicLong weighed) throws Exception {
        sampling(job, weighed, () -> true).getAsBoolean();
        long beforeRetiredChanges = weighed.get();
        DB.execute("UPDATE vt SET ver = ver + 1 WHERE id % 97 = 0");
        Map<Long, long[]> table = VersionedWriters.read(DB, "vt");
        SourceJobs.await(
                "the changes after retirement in the output",
                Duration.ofMinutes(1),
                () ->
                        SnapshotHandoffExactlyOnceIT.sameRows(
                                ChangelogCheck.apply(committed()), table));
        sampling(job, weighed, () -> true).getAsBoolean();
        assertThat(weighed.get())
                .as("key values weighed after the gate retired")
                .isEqualTo(beforeRetiredChanges);
    }

    /** {@code condition}, noting on the way the most key values the gate has had weighed. */
    private static BooleanSupplier sampling(
            JobID job, AtomicLong weighed, BooleanSupplier condition) {
        return () -> {
            long n = 0; // over every attempt of every subtask: the reporter retains them
            for (Map.Entry<MetricGroup, Map<String, Metric>> g :
                    REPORTER.getMetricsByGroup().entrySet()) {
                Metric m = g.getValue().get(CapstanReaderMetrics.GATE_KEYS_WEIGHED);
                if (m != null
                        && job.toString().equals(g.getKey().getAllVariables().get("<job_id>"))) {
                    n += ((Counter) m).getCount();
                }
            }
            weighed.accumulateAndGet(n, Math::max);
            return condition.getAsBoolean();
        };
    }

    private List<String> committed() {
        try {
            return TwoPhaseFileSink.committedLines(sinkDir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
