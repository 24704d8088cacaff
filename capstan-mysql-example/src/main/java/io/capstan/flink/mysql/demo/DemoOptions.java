package io.capstan.flink.mysql.demo;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;

/**
 * The demo's options, from system properties ({@code -Ddemo.mysql.host=...}); the password may also
 * come from the environment variable {@code CAPSTAN_DEMO_MYSQL_PASSWORD}, which keeps it out of the
 * process list. Documented in docs/quickstart.md.
 */
final class DemoOptions {

    static final String PASSWORD_ENV = "CAPSTAN_DEMO_MYSQL_PASSWORD";

    /** Empty: start the embedded MySQL; otherwise the user's server. */
    final String mysqlHost;

    final int mysqlPort;
    final String mysqlUser;
    final String mysqlPassword;
    final String database;

    /** Null: interactive until Ctrl-C; otherwise run this long, then compare and exit. */
    final Duration duration;

    /** Row changes per second, over all writers. */
    final int rate;

    final int writers;
    final int seedRows;

    /** The aggregate job's binlog server id; the changelog job uses the next one. */
    final int serverId;

    final Path workDir;

    private DemoOptions(Properties p, String passwordFromEnv) {
        mysqlHost = p.getProperty("demo.mysql.host", "").trim();
        mysqlPort = intOption(p, "demo.mysql.port", 3306, 1, 65535);
        mysqlUser = p.getProperty("demo.mysql.user", "").trim();
        String pw = p.getProperty("demo.mysql.password", "");
        mysqlPassword = pw.isEmpty() && passwordFromEnv != null ? passwordFromEnv : pw;
        database = p.getProperty("demo.database", "shop").trim();
        duration = durationOption(p.getProperty("demo.duration", "").trim());
        rate = intOption(p, "demo.rate", 40, 1, 2000);
        writers = intOption(p, "demo.writers", 2, 1, 16);
        seedRows = intOption(p, "demo.rows", 3000, 1, 1_000_000);
        serverId = intOption(p, "demo.server-id", 5401, 1, Integer.MAX_VALUE - 1);
        workDir = Paths.get(p.getProperty("demo.work.dir", "target/demo")).toAbsolutePath();
        if (!database.matches("[A-Za-z0-9_]{1,64}")) {
            throw new IllegalArgumentException(
                    "demo.database: use letters, digits and '_' only (1..64 characters)");
        }
        if (!mysqlHost.isEmpty() && mysqlUser.isEmpty()) {
            throw new IllegalArgumentException(
                    "demo.mysql.user: required with demo.mysql.host (an account with the privileges"
                            + " listed in docs/quickstart.md)");
        }
    }

    /**
     * System properties, overridden by program arguments of the form {@code demo.key=value} (also
     * accepted: {@code -Ddemo.key=value}, {@code --demo.key=value}).
     */
    static DemoOptions fromSystem(String... args) {
        Properties p = new Properties();
        p.putAll(System.getProperties());
        for (String a : args) {
            String kv =
                    a.startsWith("-D") ? a.substring(2) : a.startsWith("--") ? a.substring(2) : a;
            int eq = kv.indexOf('=');
            if (!kv.startsWith("demo.") || eq < 0) {
                throw new IllegalArgumentException(
                        "unknown argument: use demo.<option>=<value>,"
                                + " e.g. demo.duration=30s (options: docs/quickstart.md)");
            }
            p.setProperty(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return new DemoOptions(p, System.getenv(PASSWORD_ENV));
    }

    static DemoOptions from(Properties p) {
        return new DemoOptions(p, null);
    }

    boolean embedded() {
        return mysqlHost.isEmpty();
    }

    boolean interactive() {
        return duration == null;
    }

    private static int intOption(Properties p, String key, int dflt, int min, int max) {
        String v = p.getProperty(key, "").trim();
        if (v.isEmpty()) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(
                key + ": expected a whole number in " + min + ".." + max);
    }

    /** "30s", "2m", "90" (seconds) or ISO-8601 "PT30S"; empty means interactive. */
    static Duration durationOption(String v) {
        if (v.isEmpty()) {
            return null;
        }
        String s = v.toLowerCase(Locale.ROOT);
        try {
            Duration d;
            if (s.startsWith("pt")) {
                d = Duration.parse(v);
            } else if (s.endsWith("ms")) {
                d = Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2).trim()));
            } else if (s.endsWith("s")) {
                d = Duration.ofSeconds(Long.parseLong(s.substring(0, s.length() - 1).trim()));
            } else if (s.endsWith("m") || s.endsWith("min")) {
                d =
                        Duration.ofMinutes(
                                Long.parseLong(s.replace("min", "").replace("m", "").trim()));
            } else {
                d = Duration.ofSeconds(Long.parseLong(s));
            }
            if (!d.isNegative() && !d.isZero()) {
                return d;
            }
        } catch (RuntimeException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(
                "demo.duration: expected a positive duration such as 30s or 2m");
    }
}
