package io.capstan.flink.mysql.demo;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Flink's local stream and table environments, created on a thread of their own while MySQL starts.
 * Creating the table environment loads Flink's table planner (its jar unpacked and thousands of
 * classes loaded: seconds in a cold JVM), the slowest part of Flink's start that needs nothing from
 * MySQL; the demo's own thread meanwhile mostly waits for mysqld.
 *
 * <p>All later table work runs on that same thread ({@link #call}): the planner keeps per-thread
 * state (Calcite's metadata handlers) set up on the thread that created it.
 */
final class LocalFlinkTables {

    /** The environments, and how long creating them took. */
    record Ready(StreamExecutionEnvironment env, StreamTableEnvironment tables, Duration took) {}

    /** Work on the environments. */
    interface Work<T> {
        T run(Ready flink) throws Exception;
    }

    /** Creating the environments or planning and submitting the job: never this long. */
    private static final Duration WAIT = Duration.ofMinutes(10);

    private final ExecutorService thread;
    private final CompletableFuture<Ready> ready;

    private LocalFlinkTables(ExecutorService thread, Configuration conf) {
        this.thread = thread;
        this.ready = CompletableFuture.supplyAsync(() -> create(conf), thread);
    }

    /** Starts creating the environments on their own thread. */
    static LocalFlinkTables createInBackground() {
        return createInBackground(new Configuration());
    }

    /**
     * As {@link #createInBackground()}, with {@code conf} added to the local Flink's configuration
     * (the lakehouse example's checkpoint interval).
     */
    static LocalFlinkTables createInBackground(Configuration conf) {
        // Logging initialises here, on the caller's thread, first: SLF4J initialising while
        // another thread asks it for a logger prints a warning about substitute loggers on the
        // terminal.
        LoggerFactory.getILoggerFactory();
        // The thread inherits the caller's context class loader, which Flink takes as the user
        // code class loader, as it would on the caller's thread.
        return new LocalFlinkTables(
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, "flink-table-environment");
                            t.setDaemon(true);
                            return t;
                        }),
                conf);
    }

    private static Ready create(Configuration extra) {
        long t0 = System.nanoTime();
        Configuration conf = new Configuration();
        conf.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        conf.addAll(extra);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(conf);
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        return new Ready(env, tables, Duration.ofNanos(System.nanoTime() - t0));
    }

    /** Waits until the environments exist; rethrows what creating them threw. */
    Ready await() throws Exception {
        return unwrap(ready);
    }

    /** Runs {@code work} on the environments' thread and waits for its result. */
    <T> T call(Work<T> work) throws Exception {
        Ready flink = await();
        return unwrap(CompletableFuture.supplyAsync(() -> runUnchecked(work, flink), thread));
    }

    private static <T> T runUnchecked(Work<T> work, Ready flink) {
        try {
            return work.run(flink);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new java.util.concurrent.CompletionException(e);
        }
    }

    private static <T> T unwrap(CompletableFuture<T> future) throws Exception {
        try {
            return future.get(WAIT.toMinutes(), TimeUnit.MINUTES);
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "Flink's table environment did not answer within " + WAIT.toMinutes() + " min");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception) {
                throw (Exception) cause;
            }
            throw e;
        }
    }
}
