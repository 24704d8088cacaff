package io.capstan.flink.mysql.bench.flink120;

import io.capstan.flink.mysql.bench.coldrun.ColdRunArgs;
import io.capstan.flink.mysql.bench.coldrun.ColdRunClock;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A cold-run program on Flink 1.20, written as a user of a Flink SQL CDC connector writes one: a
 * {@code CREATE TABLE ... WITH ('connector' = ...)}, the table turned into a changelog stream, a
 * sink, {@code executeAsync} on {@code getExecutionEnvironment()} (a local MiniCluster in this
 * JVM). The cold-start benchmark launches one fresh JVM per measured program and reads one {@code
 * COLD-RUN ...} line per run from stdout (run 1 cold, the others warm in the same JVM), or one
 * {@code COLD-RUN-FAILED <reason>} line and exit status 1. Arguments: see {@link ColdRunArgs}; the
 * database password comes from the environment variable {@value #PASSWORD_ENV}.
 */
public final class ColdSqlProgram {

    static final String PASSWORD_ENV = "CAPSTAN_BENCH_PASSWORD";
    static final String FAILED_PREFIX = "COLD-RUN-FAILED ";

    /** How long teardown (cancel, a bounded job's end) may take before the run counts as failed. */
    private static final Duration TEARDOWN_TIMEOUT = Duration.ofSeconds(60);

    private ColdSqlProgram() {}

    public static void main(String[] argv) {
        ColdRunClock.mainStarted(); // time zero: everything below is what a user's program meets
        int status = 0;
        try {
            ColdRunArgs<ColdRunVariant> args =
                    ColdRunArgs.parse(argv, ColdRunVariant::byId, ColdRunVariant::readsBinlog);
            String password = password(args.variant());
            for (int run = 1; run <= args.runs(); run++) {
                runOnce(args, password);
                System.out.println(ColdRunClock.finishRun(run).format());
                System.out.flush();
            }
        } catch (RunFailure e) {
            fail(e.getMessage(), e.getCause());
            status = 1;
        } catch (IllegalArgumentException e) {
            fail("arguments: " + e.getMessage(), null); // the parser's own messages hold no value
            status = 1;
        } catch (Throwable e) {
            fail("unexpected", e);
            status = 1;
        }
        // Flink's local MiniCluster leaves non-daemon threads behind
        System.exit(status);
    }

    private static String password(ColdRunVariant variant) throws RunFailure {
        if (variant == ColdRunVariant.FLOOR_SQL) {
            return "";
        }
        String password = System.getenv(PASSWORD_ENV);
        if (password == null) {
            throw new RunFailure(PASSWORD_ENV + " is not set", null);
        }
        return password;
    }

    /** One measured run: build and submit the job, wait for its records, end it. */
    private static void runOnce(ColdRunArgs<ColdRunVariant> args, String password)
            throws RunFailure {
        ColdRunClock.startRun(args.expect());
        JobClient job;
        try {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(args.parallelism());
            StreamTableEnvironment tables = StreamTableEnvironment.create(env);
            tables.executeSql(ColdRunTableDdl.createTable(args, password));
            tables.toChangelogStream(tables.from(ColdRunTableDdl.TABLE))
                    .sinkTo(new CountingSink())
                    .name("counting sink");
            job = env.executeAsync("cold-run " + args.variant().id());
            ColdRunClock.jobAccepted();
        } catch (Exception e) {
            throw new RunFailure("submission failed", e);
        }
        CompletableFuture<JobExecutionResult> result = job.getJobExecutionResult();
        awaitRecords(args, result, job);
        if (args.variant().readsBinlog()) {
            cancel(job, result); // a binlog job never ends by itself
        } else {
            awaitEnd(result); // a bounded job ends after its last record
        }
        if (ColdRunClock.records() != args.expect()) {
            throw new RunFailure(
                    "the job delivered "
                            + ColdRunClock.records()
                            + " records, expected "
                            + args.expect(),
                    null);
        }
    }

    private static void awaitRecords(
            ColdRunArgs<ColdRunVariant> args,
            CompletableFuture<JobExecutionResult> result,
            JobClient job)
            throws RunFailure {
        long deadline = System.nanoTime() + args.timeout().toNanos();
        while (!ColdRunClock.complete()) {
            if (result.isDone()) {
                try {
                    result.get();
                } catch (InterruptedException | ExecutionException e) {
                    throw new RunFailure(
                            "the job failed after " + ColdRunClock.records() + " records", e);
                }
                throw new RunFailure(
                        "the job ended after "
                                + ColdRunClock.records()
                                + " of "
                                + args.expect()
                                + " records",
                        null);
            }
            if (System.nanoTime() - deadline > 0) {
                job.cancel();
                throw new RunFailure(
                        "timeout after "
                                + args.timeout().toSeconds()
                                + " s with "
                                + ColdRunClock.records()
                                + " of "
                                + args.expect()
                                + " records",
                        null);
            }
            try {
                // waits for the job's end or 5 ms: the clock notes arrival times itself, so this
                // loop's period only delays the next run, not a measurement
                result.get(5, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // checked on the next turn
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RunFailure("interrupted", e);
            }
        }
    }

    private static void awaitEnd(CompletableFuture<JobExecutionResult> result) throws RunFailure {
        try {
            result.get(TEARDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new RunFailure("the bounded job did not end after its last record", e);
        } catch (InterruptedException | ExecutionException e) {
            throw new RunFailure("the job failed after its last record", e);
        }
    }

    /** Cancels and waits until the job's local MiniCluster is gone, so runs do not overlap. */
    private static void cancel(JobClient job, CompletableFuture<JobExecutionResult> result)
            throws RunFailure {
        try {
            job.cancel().get(TEARDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            throw new RunFailure("cancelling the job failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted", e);
        }
        try {
            result.get(TEARDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            // the cancelled job's result: expected
        } catch (TimeoutException e) {
            throw new RunFailure("the cancelled job did not end", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted", e);
        }
    }

    /**
     * One stdout line for the benchmark, and the causes' classes and frames on stderr: no exception
     * message, as connectors' messages may hold row values or, in Flink's, the table's options.
     */
    private static void fail(String reason, Throwable cause) {
        StringBuilder line = new StringBuilder(FAILED_PREFIX).append(reason);
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            line.append(t == cause ? ": " : " <- ").append(t.getClass().getName());
            System.err.println("cause " + t.getClass().getName());
            StackTraceElement[] frames = t.getStackTrace();
            for (int i = 0; i < Math.min(12, frames.length); i++) {
                System.err.println("    at " + frames[i]);
            }
        }
        System.out.println(line);
        System.out.flush();
    }

    /** A run that did not deliver its records; the message is this program's own, no value. */
    private static final class RunFailure extends Exception {
        private static final long serialVersionUID = 1L;

        RunFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
