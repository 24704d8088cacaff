package io.capstan.flink.mysql.perf;

import io.capstan.flink.mysql.testing.MySqlServer;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The probes' representative table (BIGINT key, INT, VARCHAR(64), DECIMAL(12,2), DATETIME(3),
 * TIMESTAMP(3), TINYINT, DOUBLE, VARCHAR(255), JSON), its generated rows (fixed seed), and the
 * small timing helpers the probes share. Probe code only: never runs in {@code mvn verify}.
 */
final class PerfData {

    static final String COLUMNS =
            "id BIGINT NOT NULL PRIMARY KEY, i INT, s64 VARCHAR(64), amount DECIMAL(12,2),"
                    + " dt DATETIME(3), ts TIMESTAMP(3) NULL, flag TINYINT, d DOUBLE, s255 VARCHAR(255),"
                    + " doc JSON";

    private PerfData() {}

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

    /** One measured variant of a probe: reads everything once, returns the rows it saw. */
    @FunctionalInterface
    interface Variant {
        long run() throws Exception;
    }

    /**
     * Runs the variants ({@code -Dperf.only=a,b} keeps only those) for a warm-up round and {@code
     * -Dperf.rounds} (default 5) measured rounds, each round starting with the next variant; every
     * run must see {@code expected} rows. Prints each run's rows per wall second and per second of
     * this JVM's CPU, then their medians and ratios to the variant {@code plain}.
     *
     * @param what what a row is, for the summary ("rows", "row changes")
     */
    static void measure(Map<String, Variant> variants, long expected, String what)
            throws Exception {
        int rounds = intProperty("perf.rounds", 5);
        String only = System.getProperty("perf.only");
        Map<String, Variant> measured = new LinkedHashMap<>(variants);
        if (only != null) {
            measured.keySet().retainAll(List.of(only.split(",")));
        }
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        Map<String, List<Double>> cpuRates = new LinkedHashMap<>();
        for (int round = -1; round < rounds; round++) { // round -1 warms up
            for (Map.Entry<String, Variant> v : rotated(measured, round)) {
                long start = System.nanoTime();
                long cpuStart = processCpuNanos();
                long n = v.getValue().run();
                double seconds = (System.nanoTime() - start) / 1e9;
                double cpuSeconds = (processCpuNanos() - cpuStart) / 1e9;
                if (n != expected) {
                    throw new IllegalStateException(
                            v.getKey() + " saw " + n + " rows, expected " + expected);
                }
                if (round >= 0) {
                    rates.computeIfAbsent(v.getKey(), k -> new ArrayList<>()).add(n / seconds);
                    cpuRates.computeIfAbsent(v.getKey(), k -> new ArrayList<>())
                            .add(n / cpuSeconds);
                }
                System.out.printf(
                        "round %d %-15s %8.0f rows/s  %8.0f rows/client-cpu-s  (load %s)%n",
                        round, v.getKey(), n / seconds, n / cpuSeconds, loadAverage());
            }
        }
        double plain = rates.containsKey("plain") ? median(rates.get("plain")) : Double.NaN;
        double plainCpu =
                cpuRates.containsKey("plain") ? median(cpuRates.get("plain")) : Double.NaN;
        System.out.printf("%n%d %s, %d rounds, medians:%n", expected, what, rounds);
        for (Map.Entry<String, List<Double>> r : rates.entrySet()) {
            double m = median(r.getValue());
            double c = median(cpuRates.get(r.getKey()));
            System.out.printf(
                    "  %-15s %9.0f rows/s  %.2fx plain   %9.0f rows/client-cpu-s  %.2fx plain%n",
                    r.getKey(), m, m / plain, c, c / plainCpu);
        }
    }

    /** Each round starts with the next variant, so none always follows the same one's garbage. */
    private static <V> List<Map.Entry<String, V>> rotated(Map<String, V> variants, int round) {
        List<Map.Entry<String, V>> list = new ArrayList<>(variants.entrySet());
        Collections.rotate(list, -Math.floorMod(round, Math.max(1, list.size())));
        return list;
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
