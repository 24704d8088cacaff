package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.schema.TableId;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/** Helpers for the binlog streamer's integration tests. */
final class StreamerFixture {

    // Server ids unlikely to collide with other test classes on the same server.
    private static final AtomicLong NEXT_SERVER_ID =
            new AtomicLong(3_000_000 + ThreadLocalRandom.current().nextInt(1_000_000) * 100L);

    private StreamerFixture() {}

    static long newServerId() {
        return NEXT_SERVER_ID.incrementAndGet();
    }

    static BinlogStreamerConfig.Builder config(
            MySqlConnectionConfig connection, TableId... captured) {
        return BinlogStreamerConfig.builder()
                .connection(connection.toBuilder().heartbeatInterval(Duration.ofSeconds(2)).build())
                .serverId(newServerId())
                .tableFilter(TableFilter.of(Set.of(captured)))
                .reconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
                .reconnectMaxDuration(Duration.ofSeconds(60));
    }

    /** Polls until {@code done} holds for the records so far, or fails after {@code timeout}. */
    static List<BinlogRecord> drain(
            BinlogStreamer s, Predicate<List<BinlogRecord>> done, Duration timeout)
            throws InterruptedException {
        List<BinlogRecord> out = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(out)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "timed out after " + out.size() + " records; metrics " + s.metrics());
            }
            BinlogRecord r = s.poll(100, TimeUnit.MILLISECONDS);
            if (r != null) {
                out.add(r);
            }
        }
        return out;
    }

    static Predicate<List<BinlogRecord>> endsAtLeast(int n) {
        return l -> l.stream().filter(r -> r instanceof TransactionEnd).count() >= n;
    }

    static Predicate<List<BinlogRecord>> rowsAtLeast(int n) {
        return l -> l.stream().filter(r -> r instanceof RowChange).count() >= n;
    }

    static List<RowChange> rows(List<BinlogRecord> records) {
        List<RowChange> out = new ArrayList<>();
        for (BinlogRecord r : records) {
            if (r instanceof RowChange) {
                out.add((RowChange) r);
            }
        }
        return out;
    }

    /** KILLs the binlog dump threads of {@code user}; returns how many. */
    static int killDumpThreads(Connection root, String user) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (Statement st = root.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT id FROM information_schema.processlist"
                                        + " WHERE command LIKE 'Binlog Dump%' AND user = '"
                                        + user
                                        + "'")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        for (long id : ids) {
            try (Statement st = root.createStatement()) {
                st.execute("KILL " + id);
            }
        }
        return ids.size();
    }
}
