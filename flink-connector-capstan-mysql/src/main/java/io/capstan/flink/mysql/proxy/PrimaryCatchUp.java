package io.capstan.flink.mysql.proxy;

import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.annotation.Internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.function.Function;

/**
 * Asks a primary for its {@code gtid_executed} again, briefly, while it lacks transactions a
 * replica of it already shows. MySQL adds a transaction to {@code gtid_executed} in its commit
 * stage, after the binlog that holds it may already have been sent, so a replica in step can for a
 * moment show transactions the primary's set does not hold yet. A true divergence (the replica's
 * own transactions) outlasts the wait, and the caller's check then halts on it.
 */
@Internal
public final class PrimaryCatchUp {

    /** How long a primary's commit stage may trail a replica that applied its binlog. */
    public static final Duration WAIT = Duration.ofSeconds(1);

    private static final Duration ASK_EVERY = Duration.ofMillis(20);

    private PrimaryCatchUp() {}

    /** One question to the primary. */
    @FunctionalInterface
    public interface Ask<T> {
        T ask() throws IOException;
    }

    /**
     * The primary's answer, asked again every 20 ms for up to {@code wait} while the executed set
     * in it does not contain {@code onReplica}; the last answer when the wait ran out.
     */
    public static <T> T holding(
            GtidSet onReplica, Ask<T> primary, Function<T, GtidSet> executedOf, Duration wait)
            throws IOException {
        long deadline = System.nanoTime() + wait.toNanos();
        T answer = primary.ask();
        while (!executedOf.apply(answer).containsAll(onReplica) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(ASK_EVERY.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while asking the primary again");
            }
            answer = primary.ask();
        }
        return answer;
    }
}
