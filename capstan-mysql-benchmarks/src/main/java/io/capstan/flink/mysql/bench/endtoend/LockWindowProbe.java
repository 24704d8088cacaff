package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.ServerDialect;
import io.capstan.flink.mysql.snapshot.read.ReadViewStatements;

import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;

/**
 * How long the table stays locked per chunk: the statements {@code ChunkReader} runs while it holds
 * {@code LOCK TABLES … READ} (connection A locks; connection B, in one multi-statement, starts a
 * consistent snapshot, reads {@code @@global.gtid_executed}, takes its metadata lock and reads the
 * table definition; A unlocks), replayed here with a clock around them, without reading rows.
 * Writers of the table wait at most this window plus the time the lock request itself queued behind
 * them. A diagnostic replica of the protocol, not the reader's code.
 */
final class LockWindowProbe {

    /**
     * Microseconds, sorted: the time from asking for the lock to having it, and from having it to
     * released.
     */
    static final class Windows {
        final long[] acquireMicros;
        final long[] heldMicros;

        Windows(long[] acquireMicros, long[] heldMicros) {
            this.acquireMicros = acquireMicros;
            this.heldMicros = heldMicros;
        }
    }

    private LockWindowProbe() {}

    static Windows run(MySqlConnectionConfig c, BenchTable table, int cycles) throws Exception {
        long[] acquire = new long[cycles];
        long[] held = new long[cycles];
        // ChunkReader's own read view statements, in one multi-statement round trip as it sends
        // them.
        try (Connection a = JdbcConnections.open(c);
                Connection b =
                        JdbcConnections.open(
                                c.toBuilder().jdbcProperty("allowMultiQueries", "true").build());
                Statement lock = a.createStatement();
                Statement snap = b.createStatement()) {
            String readView = ReadViewStatements.underLock(table.id(), ServerDialect.of(b));
            lock.execute("SET SESSION lock_wait_timeout = 1");
            snap.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            for (int i = 0; i < cycles; i++) {
                long t0 = System.nanoTime();
                lock.execute("LOCK TABLES " + table.qualified() + " READ");
                long t1 = System.nanoTime();
                snap.execute(readView);
                while (snap.getMoreResults() || snap.getUpdateCount() != -1) {
                    // drain every result of the multi-statement
                }
                lock.execute("UNLOCK TABLES");
                long t2 = System.nanoTime();
                snap.execute("COMMIT");
                acquire[i] = (t1 - t0) / 1000;
                held[i] = (t2 - t1) / 1000;
                Thread.sleep(20); // about the pace of chunks in the readings
            }
        }
        Arrays.sort(acquire);
        Arrays.sort(held);
        return new Windows(acquire, held);
    }
}
