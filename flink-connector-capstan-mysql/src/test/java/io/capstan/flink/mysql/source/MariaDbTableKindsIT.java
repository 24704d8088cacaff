package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.source.it.ChangeLineDeserializer;
import io.capstan.flink.mysql.source.it.ExactlyOnceCheck;
import io.capstan.flink.mysql.source.it.FailAtCounts;
import io.capstan.flink.mysql.source.it.RunningJobs;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.source.it.Workload;
import io.capstan.flink.mysql.testing.MariaDbServer;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MariaDB's objects that look like tables but are not captured as one (facts pinned on 10.11): a
 * system-versioned table ({@code WITH SYSTEM VERSIONING}) writes a DELETE as an update of its
 * hidden {@code row_end} and an UPDATE as an update plus an insert of the history row, so its row
 * events are not its changes; it halts {@code system_versioned_table} by name whether it is in the
 * selection at the start, gains versioning while captured, or is created while streaming. A
 * SEQUENCE ({@code NEXTVAL} writes a row event to it) is not a table: in a captured database it is
 * left out, and the tables beside it stream exactly.
 *
 * <p>MariaDB's UUID, which its binlog writes as plain BINARY(16), so the stream could not tell its
 * values from bytes: a table with such a column halts {@code unsupported_column_type} before any
 * row also in a stream-only job, and an ALTER or a CREATE ... SELECT giving a captured table one
 * halts at the statement. {@code CREATE OR REPLACE TABLE} of a captured table, a DROP and a CREATE
 * in one statement, halts {@code captured_table_removed} as a DROP does.
 */
class MariaDbTableKindsIT {

    @RegisterExtension
    static final MySqlTestDatabase DB =
            MySqlTestDatabase.onServerOfItsOwn(
                    () -> {
                        Assumptions.assumeTrue(MariaDbServer.isInstalled(), MariaDbServer.MISSING);
                        return MariaDbServer.startForCapture(41, "--gtid-strict-mode=ON");
                    });

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    @TempDir Path sinkDir;

    @RegisterExtension final RunningJobs jobs = new RunningJobs();

    /** A job on the tables {@code tables} (a pattern within the test's database) from now. */
    private JobClient stream(String tables) throws Exception {
        StreamExecutionEnvironment env = SourceJobs.env(200, null);
        SourceJobs.pipeline(
                env,
                SourceJobs.builder(DB, SourceJobs.fromBinlogEnd(DB), new ChangeLineDeserializer())
                        .tableList(DB.name() + "\\." + tables)
                        .build(),
                sinkDir);
        JobClient job = env.executeAsync("mariadb-table-kinds");
        jobs.add(job);
        return job;
    }

    private static CapstanHaltException haltOf(JobClient job) {
        return RunningJobs.haltOf(job, Duration.ofSeconds(60));
    }

    private void awaitCommitted(List<String> lines) throws InterruptedException {
        SourceJobs.await(
                "committed lines",
                Duration.ofSeconds(60),
                () -> SourceJobs.committedCount(sinkDir) >= lines.size());
    }

    /**
     * A job on {@code pattern} streams three rows of {@code table} (created here), then {@code
     * statements} run: it halts for {@code reason} with exactly those rows committed.
     */
    private CapstanHaltException haltsAfterItsRows(
            String table, String pattern, HaltReason reason, String... statements)
            throws Exception {
        DB.execute(Workload.createTable(table));
        Workload w = new Workload(DB, table);
        JobClient job = stream(pattern);
        w.insert(table, 1, 3, 1);
        awaitCommitted(w.expected());
        DB.execute(statements);
        CapstanHaltException halt = haltOf(job);
        assertThat(halt.reason()).isEqualTo(reason);
        ExactlyOnceCheck.assertExactlyOnce(w.expected(), SourceJobs.committed(sinkDir));
        return halt;
    }

    @Test
    void aSystemVersionedTableInTheSelectionHaltsByNameBeforeAnyRow() throws Exception {
        DB.execute(
                Workload.createTable("sv_plain"),
                Workload.createTable("sv_versioned") + " WITH SYSTEM VERSIONING");
        JobClient job = stream("sv_.*");
        CapstanHaltException halt = haltOf(job);
        assertThat(halt.reason()).isEqualTo(HaltReason.SYSTEM_VERSIONED_TABLE);
        assertThat(halt.getMessage())
                .contains(DB.name() + ".sv_versioned")
                .contains("DROP SYSTEM VERSIONING")
                .doesNotContain("sv_plain");
        assertThat(FailAtCounts.seen()).as("records the source emitted").isZero();
    }

    @Test
    void aCapturedTableThatGainsSystemVersioningHaltsBeforeItsNextRow() throws Exception {
        CapstanHaltException halt =
                haltsAfterItsRows(
                        "gv_t",
                        "gv_t",
                        HaltReason.SYSTEM_VERSIONED_TABLE,
                        "ALTER TABLE gv_t ADD SYSTEM VERSIONING",
                        "DELETE FROM gv_t WHERE id = 1",
                        "UPDATE gv_t SET ver = 2 WHERE id = 2");
        assertThat(halt.getMessage()).contains(DB.name() + ".gv_t");
    }

    @Test
    void aSystemVersionedTableCreatedWhileStreamingHaltsBeforeItsRows() throws Exception {
        CapstanHaltException halt =
                haltsAfterItsRows(
                        "cv_first",
                        "cv_.*",
                        HaltReason.SYSTEM_VERSIONED_TABLE,
                        Workload.createTable("cv_later") + " WITH SYSTEM VERSIONING",
                        "INSERT INTO cv_later VALUES (1, 1, 1, 'c')",
                        "DELETE FROM cv_later WHERE id = 1");
        assertThat(halt.getMessage()).contains(DB.name() + ".cv_later");
    }

    @Test
    void aCapturedTableGivenAUuidColumnHaltsBeforeItsNextRow() throws Exception {
        CapstanHaltException halt =
                haltsAfterItsRows(
                        "uc_t",
                        "uc_t",
                        HaltReason.UNSUPPORTED_COLUMN_TYPE,
                        "ALTER TABLE uc_t ADD COLUMN u UUID",
                        "UPDATE uc_t SET u = UUID(), ver = 2 WHERE id = 1");
        assertThat(halt.getMessage())
                .contains("table " + DB.name() + ".uc_t was given a column")
                .contains("CHAR(36)");
    }

    /** The binlog writes CREATE ... SELECT as an explicit CREATE TABLE, which names the type. */
    @Test
    void aTableCopiedWithAUuidColumnIntoTheSelectionHaltsBeforeItsRows() throws Exception {
        CapstanHaltException halt =
                haltsAfterItsRows(
                        "cs_copy_first",
                        "cs_copy.*",
                        HaltReason.UNSUPPORTED_COLUMN_TYPE,
                        "CREATE TABLE cs_source (id BIGINT PRIMARY KEY, u UUID)",
                        "INSERT INTO cs_source VALUES (1, UUID())",
                        "CREATE TABLE cs_copy_2 AS SELECT * FROM cs_source");
        // the stream's halt at the CREATE, not a restore's after its rows reached the job
        assertThat(halt.getMessage())
                .contains("table " + DB.name() + ".cs_copy_2 was given a column");
    }

    /**
     * CREATE TABLE ... LIKE names no types: a table copied from an uncaptured one halts at its
     * first row when that shows a BINARY(16), which may be a UUID.
     */
    @Test
    void aTableCopiedByLikeWithAUuidColumnHaltsBeforeItsFirstRow() throws Exception {
        CapstanHaltException halt =
                haltsAfterItsRows(
                        "lk_first",
                        "lk_.*",
                        HaltReason.UNSUPPORTED_COLUMN_TYPE,
                        Workload.createTable("src_lk").replace("))", "), u UUID)"),
                        "CREATE TABLE lk_copy LIKE src_lk",
                        "INSERT INTO lk_copy VALUES (1, 1, 1, 'k', UUID())");
        assertThat(halt.getMessage())
                .contains("table " + DB.name() + ".lk_copy came into the stream")
                .contains("column u is written as BINARY(16)");
    }

    @Test
    void aStreamOnlyJobOnATableWithAUuidColumnHaltsBeforeAnyRow() throws Exception {
        DB.execute(Workload.createTable("uo_t").replace("))", "), u UUID)"));
        JobClient job = stream("uo_t");
        DB.execute("INSERT INTO uo_t VALUES (1, 1, 1, 'o', UUID())");
        CapstanHaltException halt = haltOf(job);
        assertThat(halt.reason()).isEqualTo(HaltReason.UNSUPPORTED_COLUMN_TYPE);
        assertThat(halt.getMessage()).contains(DB.name() + ".uo_t column u has the type uuid");
        assertThat(FailAtCounts.seen()).as("records the source emitted").isZero();
    }

    @Test
    void createOrReplaceOfACapturedTableHaltsAsItsDrop() throws Exception {
        CapstanHaltException halt =
                haltsAfterItsRows(
                        "cr_t",
                        "cr_t",
                        HaltReason.CAPTURED_TABLE_REMOVED,
                        Workload.createTable("cr_t")
                                .replace("CREATE TABLE", "CREATE OR REPLACE TABLE"),
                        "INSERT INTO cr_t VALUES (1, 1, 1, 'r')");
        assertThat(halt.getMessage()).contains(DB.name() + ".cr_t").contains("CREATE OR REPLACE");
    }

    @Test
    void aSequenceInTheCapturedDatabaseIsLeftOutAndTheTablesStreamExactly() throws Exception {
        DB.execute(Workload.createTable("sq_t"), "CREATE SEQUENCE sq_seq");
        Workload w = new Workload(DB, "s");
        JobClient job = stream("sq_.*");
        w.insert("sq_t", 1, 3, 1);
        DB.execute(
                "SELECT NEXTVAL(sq_seq)", "CREATE SEQUENCE sq_later", "SELECT NEXTVAL(sq_later)");
        w.insert("sq_t", 4, 6, 1);
        awaitCommitted(w.expected());
        Thread.sleep(1_000); // a sequence's row, emitted as a change, would show
        job.cancel().get(30, TimeUnit.SECONDS);
        ExactlyOnceCheck.assertExactlyOnce(w.expected(), SourceJobs.committed(sinkDir));
    }
}
