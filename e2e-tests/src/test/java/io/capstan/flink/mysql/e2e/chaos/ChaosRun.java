package io.capstan.flink.mysql.e2e.chaos;

import io.capstan.flink.mysql.e2e.chaos.ChaosOutcome.Applied;
import io.capstan.flink.mysql.e2e.chaos.ChaosOutcome.Phase;
import io.capstan.flink.mysql.e2e.cluster.FlinkStandaloneCluster;
import io.capstan.flink.mysql.e2e.cluster.OutputFiles;
import io.capstan.flink.mysql.e2e.connector.CdcJobFixture;
import io.capstan.flink.mysql.e2e.connector.ChangelogCheck;
import io.capstan.flink.mysql.e2e.connector.VersionedLoad;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One chaos round: two tables filled, the job started ({@code initial}, parallelism 2, checkpoints
 * every second, a throttled snapshot so that faults land in it), writers on both tables throughout
 * (inserts, updates, key moves, deletes, multi-row transactions, and once one big transaction), the
 * seed's {@link ChaosSchedule} applied by the {@link Nemesis}, then the verdict: each table's
 * committed changelog, applied by row identity, has no duplicate, gap or reorder and ends equal to
 * the table ({@link ChangelogCheck}), and the job did not stop (no halt is expected: every fault
 * here is transient).
 */
public final class ChaosRun {
    private static final Pattern HALT_CODE = Pattern.compile("\\[([a-z_]+)]");
    private static final Duration CATCH_UP = Duration.ofMinutes(3);

    /** The size and pace of a round. */
    public record Settings(
            int rowsPerTable,
            int chunkSize,
            long snapshotRowsPerSecond,
            Duration length,
            Duration firstGap,
            Duration minGap,
            Duration maxGap,
            int writersPerTable,
            long writerPauseMillis,
            int bigTransactionRows) {}

    private final FlinkStandaloneCluster cluster;
    private final MySqlTestDatabase db;
    private final TcpChaosProxy proxy;
    private final Settings settings;

    public ChaosRun(
            FlinkStandaloneCluster cluster,
            MySqlTestDatabase db,
            TcpChaosProxy proxy,
            Settings settings) {
        this.cluster = cluster;
        this.db = db;
        this.proxy = proxy;
        this.settings = settings;
    }

    /** Runs the round of {@code seed}; {@code serverId} must differ between rounds. */
    public ChaosOutcome run(long seed, long serverId) throws InterruptedException {
        long begun = System.nanoTime();
        String suffix = Long.toUnsignedString(seed, 36);
        List<String> tables = List.of("orders_" + suffix, "accounts_" + suffix);
        CdcJobFixture fixture = new CdcJobFixture(cluster, db, proxy.host(), proxy.port());
        for (String table : tables) {
            fixture.createTable(table);
            fixture.fill(table, settings.rowsPerTable());
        }
        ChaosSchedule schedule =
                ChaosSchedule.draw(
                        seed,
                        settings.length(),
                        settings.firstGap(),
                        settings.minGap(),
                        settings.maxGap());
        System.out.println("Chaos round " + schedule);
        ChaosJob job =
                new ChaosJob(
                        cluster,
                        fixture,
                        "chaos-" + suffix,
                        String.join(",", tables),
                        serverId,
                        cluster.workDir().resolve("chaos-out-" + suffix),
                        List.of(
                                "--checkpoint-interval", "1000",
                                "--chunk-size", Integer.toString(settings.chunkSize()),
                                "--snapshot-max-rows-per-second",
                                        Long.toString(settings.snapshotRowsPerSecond())));
        Nemesis nemesis =
                new Nemesis(
                        cluster, proxy, db.server(), db.connectorAccount().username(), job, seed);
        List<Applied> applied = new ArrayList<>();
        List<String> violations = new ArrayList<>();
        String halt = null;
        List<VersionedLoad> loads = new ArrayList<>();
        try {
            job.start();
            for (String table : tables) {
                loads.add(
                        VersionedLoad.startReconnecting(
                                table,
                                db::openRootConnection,
                                settings.writersPerTable(),
                                firstWriterId(),
                                Long.MAX_VALUE,
                                settings.writerPauseMillis()));
            }
            job.awaitRunning();
            halt = applySchedule(schedule, job, nemesis, tables.get(1), seed, applied);
        } catch (IllegalStateException e) {
            halt = haltOf(job, e);
        } finally {
            proxy.pass();
            for (VersionedLoad load : loads) {
                load.close();
            }
        }
        String summary = "";
        if (halt == null) {
            try {
                summary = verdict(job, fixture, tables, violations);
            } catch (IllegalStateException e) {
                halt = haltOf(job, e);
            }
        }
        if (halt != null && !ChaosJob.isTerminal(cluster.jobState(job.id()))) {
            cluster.cancelJob(job.id());
        }
        return new ChaosOutcome(schedule, applied, violations, halt, summary, millisSince(begun));
    }

    /**
     * Applies the timed faults (none before its time) and the handoff fault (when the enumerator
     * estimates the snapshot's end within two seconds, or the first streamed change is committed,
     * whichever comes first), runs the big transaction once in between; returns a halt if the job
     * stopped. A fault is in the stream once a change other than a snapshot read is committed
     * (during the snapshot, changes reach the output only folded into the chunks' reads).
     */
    private String applySchedule(
            ChaosSchedule schedule,
            ChaosJob job,
            Nemesis nemesis,
            String bigTable,
            long seed,
            List<Applied> applied)
            throws InterruptedException {
        long t0 = System.nanoTime();
        long bigAt = settings.length().toMillis() * (30 + new Random(seed).nextInt(40)) / 100;
        boolean handoffDone = false;
        boolean bigDone = false;
        boolean streaming = false;
        boolean handoffNear = false;
        int next = 0;
        long lastPoll = -1_000;
        long deadline = settings.length().toMillis() + CATCH_UP.toMillis();
        while (next < schedule.steps().size() || !handoffDone || !bigDone) {
            long now = millisSince(t0);
            if (now > deadline) {
                throw new IllegalStateException(
                        "The snapshot did not end " + now + " ms after the job's start");
            }
            if (now - lastPoll >= 500) {
                lastPoll = now;
                if (ChaosJob.isTerminal(cluster.jobState(job.id()))) {
                    return haltOf(job, null);
                }
                if (!streaming) {
                    streaming = streamedChangeCommitted(job);
                    SnapshotProgress progress = SnapshotProgress.of(cluster.rest(), job.id());
                    handoffNear =
                            streaming
                                    || progress.known()
                                            && progress.remainingSeconds() >= 0
                                            && progress.remainingSeconds() <= 2;
                }
            }
            if (!handoffDone && handoffNear) {
                handoffDone = true;
                applied.add(apply(nemesis, schedule.atHandoff(), Phase.HANDOFF, now));
            } else if (!bigDone && now >= bigAt) {
                bigDone = true;
                bigTransaction(bigTable);
                System.out.printf("%6.1fs big transaction on %s%n", now / 1000.0, bigTable);
            } else if (next < schedule.steps().size() && now >= stepAt(schedule, next)) {
                Phase phase = streaming ? Phase.STREAM : Phase.SNAPSHOT;
                applied.add(apply(nemesis, schedule.steps().get(next++).fault(), phase, now));
            } else {
                Thread.sleep(100);
            }
        }
        return null;
    }

    private static boolean streamedChangeCommitted(ChaosJob job) {
        return OutputFiles.committedLines(job.output()).stream()
                .anyMatch(line -> !line.startsWith("r,"));
    }

    private static long stepAt(ChaosSchedule schedule, int index) {
        return schedule.steps().get(index).atMillis();
    }

    private static Applied apply(Nemesis nemesis, Fault fault, Phase phase, long at)
            throws InterruptedException {
        Applied applied = new Applied(at, fault, phase, nemesis.apply(fault));
        System.out.println(applied);
        return applied;
    }

    /**
     * The writers' first new id: above the preloaded rows and the big transaction's inserts, so
     * that the keys stay dense (far-away keys would make the snapshot plan many empty chunks).
     */
    private long firstWriterId() {
        return settings.rowsPerTable() + settings.bigTransactionRows() + 1L;
    }

    /**
     * One transaction of many rows: as many preloaded rows updated as it inserts new rows (ids
     * reserved between the preloaded rows and the writers'); retried after a deadlock or a lost
     * connection.
     */
    private void bigTransaction(String table) throws InterruptedException {
        int rows = settings.bigTransactionRows();
        long firstId = settings.rowsPerTable() + 1L;
        for (int attempt = 1; ; attempt++) {
            try (Connection c = db.openRootConnection();
                    Statement st = c.createStatement()) {
                c.setAutoCommit(false);
                st.execute("SET SESSION cte_max_recursion_depth = " + (rows + 1));
                st.executeUpdate(
                        "UPDATE "
                                + table
                                + " SET ver = ver + 1, balance = balance + 1 WHERE id <= "
                                + rows);
                st.executeUpdate(
                        "INSERT INTO "
                                + table
                                + " (id, uid, ver, balance)"
                                + " WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n"
                                + " WHERE i < "
                                + (rows - 1)
                                + ") SELECT "
                                + firstId
                                + " + i, "
                                + firstId
                                + " + i, 1, i % 1000 FROM n");
                c.commit();
                return;
            } catch (SQLException e) {
                if (attempt > 1 && e.getErrorCode() == 1062) {
                    return; // the commit of an attempt whose connection was lost went through
                }
                if (attempt == 10) {
                    throw new IllegalStateException("The big transaction failed 10 times", e);
                }
                Thread.sleep(500); // deadlock with a writer, or the server restarting
            }
        }
    }

    /** The verdict once the writers stopped; adds violations, returns the counts. */
    private String verdict(
            ChaosJob job, CdcJobFixture fixture, List<String> tables, List<String> violations)
            throws InterruptedException {
        job.awaitRunning();
        List<List<ChangelogCheck.Row>> finalTables = new ArrayList<>();
        for (String table : tables) {
            finalTables.add(fixture.finalRows(table));
        }
        for (int i = 0; i < tables.size(); i++) {
            fixture.awaitCaughtUp(job.output(), tables.get(i), finalTables.get(i), true, CATCH_UP);
        }
        cluster.cancelJob(job.id());
        cluster.waitForJobState(job.id(), Duration.ofMinutes(1), "CANCELED");
        List<String> lines = OutputFiles.committedLines(job.output());
        StringBuilder summary = new StringBuilder();
        for (int i = 0; i < tables.size(); i++) {
            ChangelogCheck.Result result =
                    ChangelogCheck.check(
                            CdcJobFixture.linesOf(lines, tables.get(i)), finalTables.get(i), true);
            summary.append(tables.get(i)).append(": ").append(result).append("; ");
            for (String problem : result.problems()) {
                violations.add(tables.get(i) + ": " + problem);
            }
            if (result.snapshotReads() < settings.rowsPerTable() / 2) {
                violations.add(
                        tables.get(i)
                                + ": only "
                                + result.snapshotReads()
                                + " snapshot reads of "
                                + settings.rowsPerTable()
                                + " rows");
            }
        }
        return summary.append(job.incarnations()).append(" job incarnation(s)").toString();
    }

    /**
     * The job's failure (its halt code first when it names one); or, when a fault could not be
     * applied or the job did not recover ({@code harness}), that.
     */
    private String haltOf(ChaosJob job, IllegalStateException harness) {
        String state = cluster.jobState(job.id());
        if (!"FAILED".equals(state)) {
            if (harness != null) {
                return "the job did not recover (" + state + "): " + firstLines(harness);
            }
            return ChaosJob.isTerminal(state) ? "job " + job.id() + " ended " + state : null;
        }
        String exceptions = cluster.rest().exceptions(job.id()).toString();
        Matcher code = HALT_CODE.matcher(exceptions);
        String named = code.find() ? "halt " + code.group(1) + ": " : "";
        String root = cluster.rest().exceptions(job.id()).path("root-exception").asText("");
        return named + "job " + job.id() + " FAILED: " + root;
    }

    private static String firstLines(Throwable e) {
        String text = String.valueOf(e.getMessage());
        return text.length() > 4_000 ? text.substring(0, 4_000) + " ..." : text;
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}
