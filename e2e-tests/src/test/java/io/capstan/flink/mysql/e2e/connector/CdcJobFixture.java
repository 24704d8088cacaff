package io.capstan.flink.mysql.e2e.connector;

import io.capstan.flink.mysql.e2e.cluster.E2eBuild;
import io.capstan.flink.mysql.e2e.cluster.FlinkStandaloneCluster;
import io.capstan.flink.mysql.e2e.cluster.OutputFiles;
import io.capstan.flink.mysql.e2e.jobs.CdcToFilesJob;
import io.capstan.flink.mysql.testing.MySqlAccount;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the connector cluster ITs share: the versioned table, submitting {@link CdcToFilesJob} to a
 * cluster (the connector's password goes into an owner-only file in the work dir, never into the
 * REST request), reading the table's final contents and waiting until the committed output agrees.
 */
public final class CdcJobFixture {
    private final FlinkStandaloneCluster cluster;
    private final MySqlTestDatabase db;
    private final String hostname;
    private final int port;

    public CdcJobFixture(FlinkStandaloneCluster cluster, MySqlTestDatabase db) {
        this(cluster, db, null, 0);
    }

    /**
     * Jobs that reach the server through another address (a proxy in front of it, hostname and
     * port), as the connector's account; the tests' own connections still go to the server.
     */
    public CdcJobFixture(
            FlinkStandaloneCluster cluster, MySqlTestDatabase db, String hostname, int port) {
        this.cluster = cluster;
        this.db = db;
        this.hostname = hostname;
        this.port = port;
    }

    public void createTable(String table) {
        db.execute(
                "CREATE TABLE "
                        + table
                        + " (id BIGINT PRIMARY KEY, uid BIGINT NOT NULL UNIQUE,"
                        + " ver BIGINT NOT NULL, balance BIGINT NOT NULL, note VARCHAR(64))");
    }

    /** Inserts rows 1..rows (uid = id, ver 1) in one transaction. */
    public void fill(String table, int rows) {
        db.execute(
                "SET SESSION cte_max_recursion_depth = " + (rows + 1),
                "INSERT INTO "
                        + table
                        + " (id, uid, ver, balance, note)"
                        + " WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < "
                        + rows
                        + ")"
                        + " SELECT i, i, 1, i % 1000, REPEAT('x', 48) FROM n");
    }

    String gtidExecuted() {
        try (Connection c = db.openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT @@global.gtid_executed")) {
            rs.next();
            return rs.getString(1).replace("\n", "");
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read gtid_executed", e);
        }
    }

    /** Submits the job with parallelism 2 and returns its id. */
    String submit(String name, String tableRegex, String start, long serverId, Path output) {
        return submit(name, tableRegex, start, serverId, output, List.of());
    }

    /** {@link #submit} with more job arguments (e.g. {@code --chunk-size}). */
    String submit(
            String name,
            String tableRegex,
            String start,
            long serverId,
            Path output,
            List<String> moreArguments) {
        return submit(name, tableRegex, start, serverId, output, moreArguments, null);
    }

    /**
     * {@link #submit} restoring from {@code savepointPath} (null: a fresh start). {@code
     * tableRegex} may list several tables, comma-separated; each is qualified with the database.
     */
    public String submit(
            String name,
            String tableRegex,
            String start,
            long serverId,
            Path output,
            List<String> moreArguments,
            String savepointPath) {
        String qualifiedTables =
                Stream.of(tableRegex.split(","))
                        .map(table -> db.name() + "\\." + table)
                        .collect(java.util.stream.Collectors.joining(","));
        MySqlAccount account = db.connectorAccount();
        Path passwordFile =
                writePasswordFile(
                        cluster.workDir().resolve(name + ".password"), account.password());
        return cluster.submitJar(
                E2eBuild.jobsJar(),
                CdcToFilesJob.class.getName(),
                Stream.concat(
                                Stream.of(
                                        "--hostname",
                                        hostname != null ? hostname : account.hostname(),
                                        "--port",
                                        Integer.toString(hostname != null ? port : account.port()),
                                        "--username",
                                        account.username(),
                                        "--password-file",
                                        passwordFile.toString(),
                                        "--database",
                                        db.name(),
                                        "--tables",
                                        qualifiedTables,
                                        "--start",
                                        start,
                                        "--server-id",
                                        Long.toString(serverId),
                                        "--output",
                                        output.toString(),
                                        "--checkpoint-interval",
                                        "500"),
                                moreArguments.stream())
                        .toList(),
                2,
                savepointPath);
    }

    VersionedLoad startLoad(
            String table, int writers, long firstId, long maxTransactions, long pauseMillis) {
        return VersionedLoad.start(
                table, db::openRootConnection, writers, firstId, maxTransactions, pauseMillis);
    }

    public List<ChangelogCheck.Row> finalRows(String table) {
        List<ChangelogCheck.Row> rows = new ArrayList<>();
        try (Connection c = db.openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT uid, id, ver, balance FROM " + table)) {
            while (rs.next()) {
                rows.add(
                        new ChangelogCheck.Row(
                                rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read table " + table, e);
        }
        return rows;
    }

    /**
     * Polls the committed output until the check passes against the final table, i.e. until the
     * sink has committed every change up to the server's last write; returns the last result (which
     * did not pass if the timeout ran out).
     */
    ChangelogCheck.Result awaitCaughtUp(
            Path output,
            List<ChangelogCheck.Row> finalTable,
            boolean withSnapshot,
            Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        ChangelogCheck.Result result;
        do {
            result =
                    ChangelogCheck.check(
                            OutputFiles.committedLines(output), finalTable, withSnapshot);
            if (result.passed()) {
                return result;
            }
            Thread.sleep(500);
        } while (System.nanoTime() < deadline);
        return result;
    }

    /** The lines of one table (the job's output of several tables holds all of theirs). */
    public static List<String> linesOf(List<String> lines, String table) {
        return lines.stream().filter(line -> line.split(",", 3)[1].equals(table)).toList();
    }

    /** {@link #awaitCaughtUp} for one table of an output of several. */
    public ChangelogCheck.Result awaitCaughtUp(
            Path output,
            String table,
            List<ChangelogCheck.Row> finalTable,
            boolean withSnapshot,
            Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        ChangelogCheck.Result result;
        do {
            result =
                    ChangelogCheck.check(
                            linesOf(OutputFiles.committedLines(output), table),
                            finalTable,
                            withSnapshot);
            if (result.passed()) {
                return result;
            }
            Thread.sleep(500);
        } while (System.nanoTime() < deadline);
        return result;
    }

    /** No process whose command line names the cluster's work dir is left. */
    public static void assertNoProcessesLeft(FlinkStandaloneCluster cluster) {
        String workDir = cluster.workDir().toString();
        List<Long> left =
                ProcessHandle.allProcesses()
                        .filter(p -> p.info().commandLine().orElse("").contains(workDir))
                        .map(ProcessHandle::pid)
                        .toList();
        if (!left.isEmpty()) {
            throw new AssertionError("Processes of the cluster left after close(): " + left);
        }
    }

    /**
     * The no-values rule on the real cluster: the password is in none of its log or stdout files.
     */
    public static void assertPasswordNotInLogs(FlinkStandaloneCluster cluster, String password) {
        Path logDir = cluster.workDir().resolve("log");
        try (Stream<Path> files = Files.walk(logDir)) {
            List<Path> leaking = new ArrayList<>();
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                if (new String(Files.readAllBytes(file), StandardCharsets.UTF_8)
                        .contains(password)) {
                    leaking.add(logDir.relativize(file));
                }
            }
            if (!leaking.isEmpty()) {
                throw new AssertionError(
                        "The connector password is in these cluster logs: " + leaking);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path writePasswordFile(Path file, String password) {
        try {
            Files.deleteIfExists(file);
            Files.createFile(
                    file,
                    PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, password);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
