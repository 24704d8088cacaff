package io.capstan.flink.mysql.bench.flink120;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The arguments the cold-start benchmark passes to a cold-run program: {@code --variant V --host H
 * --port P --user U --ssl-mode DISABLED|REQUIRED --database D --table T --expect N --gtid-before G
 * --runs K --parallelism 1}, and optionally {@code --timeout-seconds S} (how long one run may take
 * to deliver its records, default 600). The password is not among them: it comes from the
 * environment (never a command line, which {@code ps} shows), so this record has nothing to hide in
 * {@code toString()}.
 *
 * @param gtidBefore the server's {@code gtid_executed} before the change workload; required by the
 *     binlog variants, ignored by the others
 */
public record ColdRunArgs(
        ColdRunVariant variant,
        String host,
        int port,
        String user,
        SslMode sslMode,
        String database,
        String table,
        long expect,
        String gtidBefore,
        int runs,
        int parallelism,
        Duration timeout) {

    /** TLS of every connection both connectors open, the same for both. */
    public enum SslMode {
        DISABLED,
        REQUIRED
    }

    private static final List<String> REQUIRED =
            List.of(
                    "variant",
                    "host",
                    "port",
                    "user",
                    "ssl-mode",
                    "database",
                    "table",
                    "expect",
                    "runs",
                    "parallelism");
    private static final Set<String> OPTIONAL = Set.of("gtid-before", "timeout-seconds");

    public ColdRunArgs {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("--port must be 1..65535");
        }
        if (expect < 1) {
            throw new IllegalArgumentException("--expect must be at least 1");
        }
        if (runs < 1) {
            throw new IllegalArgumentException("--runs must be at least 1");
        }
        if (parallelism < 1) {
            throw new IllegalArgumentException("--parallelism must be at least 1");
        }
        if (variant.readsBinlog() && (gtidBefore == null || gtidBefore.isBlank())) {
            throw new IllegalArgumentException("--gtid-before is required by " + variant.id());
        }
    }

    /** Reads {@code --name value} pairs; every name once, no unknown names. */
    public static ColdRunArgs parse(String[] args) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            String flag = args[i];
            if (!flag.startsWith("--")) {
                throw new IllegalArgumentException("expected an option --name, got argument " + i);
            }
            String name = flag.substring(2);
            if (!REQUIRED.contains(name) && !OPTIONAL.contains(name)) {
                throw new IllegalArgumentException("unknown option --" + name);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("--" + name + " needs a value");
            }
            if (values.put(name, args[i + 1]) != null) {
                throw new IllegalArgumentException("--" + name + " given twice");
            }
        }
        for (String name : REQUIRED) {
            if (!values.containsKey(name)) {
                throw new IllegalArgumentException("--" + name + " is required");
            }
        }
        return new ColdRunArgs(
                ColdRunVariant.byId(values.get("variant")),
                values.get("host"),
                number(values, "port"),
                values.get("user"),
                sslMode(values.get("ssl-mode")),
                values.get("database"),
                values.get("table"),
                longNumber(values, "expect"),
                values.get("gtid-before"),
                number(values, "runs"),
                number(values, "parallelism"),
                Duration.ofSeconds(
                        values.containsKey("timeout-seconds")
                                ? longNumber(values, "timeout-seconds")
                                : 600));
    }

    private static SslMode sslMode(String value) {
        try {
            return SslMode.valueOf(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--ssl-mode must be DISABLED or REQUIRED");
        }
    }

    private static int number(Map<String, String> values, String name) {
        return Math.toIntExact(longNumber(values, name));
    }

    private static long longNumber(Map<String, String> values, String name) {
        try {
            return Long.parseLong(values.get(name));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a whole number");
        }
    }
}
