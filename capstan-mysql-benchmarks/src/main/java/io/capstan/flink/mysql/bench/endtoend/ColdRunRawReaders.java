package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.bench.coldrun.ColdRunArgs;
import io.capstan.flink.mysql.bench.coldrun.ColdRunClock;
import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.network.SSLMode;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/**
 * The raw limits of the cold-start benchmark, in the same harness as the Flink programs: a
 * streaming JDBC scan over the text protocol reading every column with its typed getter, and the
 * binlog library's own client with its default deserializer counting the rows of rows events. Each
 * notes its records with {@link ColdRunClock#records}, as the counting sink does.
 */
final class ColdRunRawReaders {

    private static final long TIMEOUT_MINUTES = 30;
    private static volatile long blackhole;

    private ColdRunRawReaders() {}

    static void scan(MySqlConnectionConfig c, BenchTable table) throws SQLException {
        try (Connection conn = JdbcConnections.open(c);
                Statement st =
                        conn.createStatement(
                                ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            st.setFetchSize(Integer.MIN_VALUE);
            long sink = 0;
            try (ResultSet rs = st.executeQuery(table.selectAll())) {
                while (rs.next()) {
                    sink += JdbcScans.readRow(rs, false);
                    ColdRunClock.records(1);
                }
            }
            blackhole = sink; // keeps the JIT from dropping the reads
        }
    }

    static void binlogClient(MySqlConnectionConfig c, ColdRunArgs<?> start, int serverId)
            throws Exception {
        BinaryLogClient client =
                new BinaryLogClient(c.hostname(), c.port(), c.username(), c.password());
        client.setServerId(serverId);
        client.setKeepAlive(false);
        client.setSSLMode(SSLMode.valueOf(c.sslMode().name()));
        if (start.gtidBefore() != null) {
            client.setGtidSet(start.gtidBefore());
        } else { // a server without GTIDs
            client.setBinlogFilename(start.binlogFile());
            client.setBinlogPosition(start.binlogPos());
        }
        client.registerEventListener(
                event -> {
                    EventData data = event.getData();
                    if (data instanceof WriteRowsEventData w) {
                        ColdRunClock.records(w.getRows().size());
                    } else if (data instanceof UpdateRowsEventData u) {
                        ColdRunClock.records(u.getRows().size());
                    } else if (data instanceof DeleteRowsEventData d) {
                        ColdRunClock.records(d.getRows().size());
                    }
                });
        client.connect(TimeUnit.SECONDS.toMillis(30));
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(TIMEOUT_MINUTES);
            while (!ColdRunClock.complete()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "the plain client saw " + ColdRunClock.records() + " row changes");
                }
                Thread.sleep(5);
            }
        } finally {
            client.disconnect();
        }
    }
}
