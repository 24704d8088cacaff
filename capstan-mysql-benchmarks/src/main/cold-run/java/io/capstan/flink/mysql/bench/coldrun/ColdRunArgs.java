package io.capstan.flink.mysql.bench.coldrun;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The arguments the cold-start benchmark passes to every cold-run program, on both Flink lines:
 * {@code --variant V --host H --port P --user U --ssl-mode DISABLED|REQUIRED --database D --table
 * T --expect N --runs K --parallelism 1}, and optionally {@code --gtid-before G} or, on a server
 * without GTIDs, {@code --binlog-file F --binlog-pos P} (one of them required by the variants that
 * read the binlog), {@code --server-id S} (the binlog programs' first server id,
 * default 7300) and {@code --timeout-seconds S} (how long one run may take to deliver its records,
 * default 600). The password is not among them: it comes from the environment (never a command
 * line, which {@code ps} shows), so this record has nothing to hide in {@code toString()}.
 *
 * @param <V> the program's own variants
 * @param gtidBefore the server's {@code gtid_executed} before the change workload; null when not
 *     given
 * @param binlogFile the binlog file at the same point, for a server without GTIDs; null when not
 *     given
 * @param binlogPos the position in {@code binlogFile}; 0 when not given
 */
public record ColdRunArgs<V>(
        V variant,
        String host,
        int port,
        String user,
        SslMode sslMode,
        String database,
        String table,
        long expect,
        String gtidBefore,
        String binlogFile,
        long binlogPos,
        int runs,
        int parallelism,
        int serverId,
        Duration timeout) {

    /** TLS of every connection the measured program opens. */
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
    private static final Set<String> OPTIONAL = 
            Set.of("gtid-before", "binlog-file", "binlog-pos", "server-id", "timeout-seconds");

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
    }

    /**
     * Reads {@code --name value} pairs; every name once, no unknown names. Messages name the option,
     * never its value.
     *
     * @param variants the program's variant of a {@code --variant} id; throws {@link
     *     IllegalArgumentException} for an id it does not know
     * @param readsBinlog the variants that need {@code --gtid-before} or {@code --binlog-file} and
     *     {@code --binlog-pos}
     */
    public static <V> ColdRunArgs<V> parse(
            String[] args, Function<String, V> variants, Predicate<V> readsBinlog) {
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
        V variant = variants.apply(values.get("variant"));
        String gtidBefore = values.get("gtid-before");
        String binlogFile = values.get("binlog-file");
        if (values.containsKey("binlog-pos") != (binlogFile != null)) {
            throw new IllegalArgumentException("--binlog-file and --binlog-pos go together");
        }
        if (readsBinlog.test(variant)
                && (gtidBefore == null || gtidBefore.isBlank())
                && binlogFile == null) {
            throw new IllegalArgumentException(
                    "--gtid-before (or, without GTIDs, --binlog-file and --binlog-pos) is required"
                            + " by --variant "
                            + values.get("variant"));
        }
        return new ColdRunArgs<>(
                variant,
                values.get("host"),
                number(values, "port", null),
                values.get("user"),
                sslMode(values.get("ssl-mode")),
                values.get("database"),
                values.get("table"),
                longNumber(values, "expect", null),
                gtidBefore,
                binlogFile,
                longNumber(values, "binlog-pos", 0L),
                number(values, "runs", null),
                number(values, "parallelism", null),
                number(values, "server-id", 7300L),
                Duration.ofSeconds(longNumber(values, "timeout-seconds", 600L)));
    }

    private static SslMode sslMode(String value) {
        try {
            return SslMode.valueOf(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--ssl-mode must be DISABLED or REQUIRED");
        }
    }

    private static int number(Map<String, String> values, String name, Long absent) {
        return Math.toIntExact(longNumber(values, name, absent));
    }

    private static long longNumber(Map<String, String> values, String name, Long absent) {
        String value = values.get(name);
        if (value == null && absent != null) {
            return absent;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a whole number");
        }
    }
}
