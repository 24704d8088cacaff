package io.capstan.flink.mysql.perf;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.SslMode;
import io.capstan.flink.mysql.testing.MySqlAccount;
import io.capstan.flink.mysql.testing.MySqlServer;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The probes' representative table (issue 7: BIGINT key, INT, VARCHAR(64), DECIMAL(12,2),
 * DATETIME(3), TIMESTAMP(3), TINYINT, DOUBLE, VARCHAR(255), JSON), its generated rows (fixed seed),
 * and the small timing helpers the probes share. Probe code only: never runs in {@code mvn verify}.
 */
final class PerfData {

    static final String COLUMNS =
            "id BIGINT NOT NULL PRIMARY KEY, i INT, s64 VARCHAR(64), amount DECIMAL(12,2),"
                    + " dt DATETIME(3), ts TIMESTAMP(3) NULL, flag TINYINT, d DOUBLE, s255 VARCHAR(255),"
                    + " doc JSON";

    private PerfData() {}

    /**
     * The connector account of the probe's server, as the connector's settings, in the given TLS
     * mode.
     */
    static MySqlConnectionConfig connectorConfig(MySqlServer server, SslMode sslMode) {
        MySqlAccount account = server.connectorAccount();
        return MySqlConnectionConfig.builder()
                .hostname(account.hostname())
                .port(account.port())
                .username(account.username())
                .password(account.password())
                .connectTimeout(Duration.ofSeconds(10))
                .sslMode(sslMode)
                .build();
    }

    static int intProperty(String name, int dflt) {
        return Integer.parseInt(System.getProperty(name, Integer.toString(dflt)));
    }

    static void createTable(MySqlServer server, String db, String table) {
        server.executeAsRoot(
                "CREATE DATABASE IF NOT EXISTS " + db,
                "DROP TABLE IF EXISTS " + db + "." + table,
                "CREATE TABLE " + db + "." + table + " (" + COLUMNS + ") ENGINE=InnoDB");
    }

    /**
     * Inserts rows with ids [from, to) in transactions of {@code perTransaction} rows (one
     * statement each).
     */
    static void insertRows(
            MySqlServer server, String db, String table, long from, long to, int perTransaction)
            throws SQLException {
        Random random = new Random(42 + from);
        try (Connection c = server.openRootConnection();
                Statement st = c.createStatement()) {
            c.setAutoCommit(true);
            StringBuilder sql = new StringBuilder();
            for (long id = from; id < to; ) {
                sql.setLength(0);
                sql.append("INSERT INTO ").append(db).append('.').append(table).append(" VALUES ");
                long end = Math.min(to, id + perTransaction);
                for (long k = id; k < end; k++) {
                    if (k > id) {
                        sql.append(',');
                    }
                    appendRow(sql, k, random);
                }
                st.execute(sql.toString());
                id = end;
            }
        }
    }

    private static void appendRow(StringBuilder sql, long id, Random r) {
        sql.append('(')
                .append(id)
                .append(',')
                .append(r.nextInt())
                .append(",'")
                .append(text(r, 12 + r.nextInt(40)))
                .append('\'')
                .append(',')
                .append(
                        String.format(
                                Locale.ROOT, "%d.%02d", r.nextInt(100_000_000), r.nextInt(100)))
                .append(",'")
                .append(2000 + r.nextInt(30))
                .append('-')
                .append(1 + r.nextInt(12))
                .append('-')
                .append(1 + r.nextInt(28))
                .append(' ')
                .append(r.nextInt(24))
                .append(':')
                .append(r.nextInt(60))
                .append(':')
                .append(r.nextInt(60))
                .append('.')
                .append(r.nextInt(1000))
                .append('\'')
                .append(",FROM_UNIXTIME(")
                .append(1_000_000_000 + r.nextInt(900_000_000))
                .append('.')
                .append(100 + r.nextInt(900))
                .append(')')
                .append(',')
                .append(r.nextInt(256) - 128)
                .append(',')
                .append(r.nextDouble() * 1e6)
                .append(",'")
                .append(text(r, 60 + r.nextInt(140)))
                .append('\'')
                .append(",'{\"name\": \"")
                .append(text(r, 10))
                .append("\", \"n\": ")
                .append(r.nextInt(1000))
                .append(", \"tags\": [\"a\", \"b\", ")
                .append(r.nextInt(10))
                .append("], \"ok\": true}')");
    }

    private static final char[] ALPHABET =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.".toCharArray();

    private static String text(Random r, int length) {
        char[] c = new char[length];
        for (int k = 0; k < length; k++) {
            c[k] = ALPHABET[r.nextInt(ALPHABET.length)];
        }
        return new String(c);
    }

    /** Median of the samples (upper median for an even count). */
    static double median(List<Double> samples) {
        List<Double> s = new ArrayList<>(samples);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }

    /**
     * CPU time of this JVM (all threads, GC and JIT included): the client's cost, less noisy than
     * wall time.
     */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static String loadAverage() {
        try {
            return new String(
                            java.nio.file.Files.readAllBytes(
                                    java.nio.file.Path.of("/proc/loadavg")))
                    .trim();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
