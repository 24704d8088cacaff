package io.capstan.flink.mysql.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The mysqld flags of a test server: the safe defaults (binary log on, ROW format, FULL row image
 * and metadata, GTIDs on) plus flags a test adds, for example to start a deliberately misconfigured
 * server. Immutable; {@link #withFlag(String)} returns a new instance.
 *
 * <p>A later flag replaces every earlier flag for the same option, so {@code --disable-log-bin}
 * removes the default {@code --log-bin=...} instead of contradicting it (mysqld refuses both).
 *
 * @param extraFlags the flags added to the defaults, in the order given
 */
public record ServerOptions(List<String> extraFlags) {

    /** Replication settings every capstan test server has unless a test overrides them. */
    static final List<String> REPLICATION_DEFAULTS =
            List.of(
                    "--log-bin=binlog",
                    "--binlog-format=ROW",
                    "--binlog-row-image=FULL",
                    "--binlog-row-metadata=FULL",
                    "--gtid-mode=ON",
                    "--enforce-gtid-consistency=ON",
                    "--mysqlx=OFF",
                    "--skip-name-resolve");

    /** Settings that keep a throw-away test server small and fast; durability is not needed. */
    static final List<String> SPEED_DEFAULTS =
            List.of(
                    "--innodb-flush-log-at-trx-commit=2",
                    "--sync-binlog=0",
                    "--innodb-buffer-pool-size=64M",
                    "--performance-schema=OFF",
                    "--max-connections=300");

    private static final ServerOptions DEFAULTS = new ServerOptions(List.of());

    /** Every extra flag is a {@code --option[=value]} flag, kept in the order given. */
    public ServerOptions {
        for (String f : extraFlags) {
            if (!f.startsWith("--") || f.length() < 3) {
                throw new IllegalArgumentException(
                        "a mysqld flag starts with '--', e.g. --binlog-format=STATEMENT; was: "
                                + f);
            }
        }
        extraFlags = List.copyOf(extraFlags);
    }

    /**
     * The system property whose mysqld flags the shared embedded server adds to the defaults: the
     * build runs a set of ITs a second time on a server without GTIDs with {@code
     * -Dcapstan.test.server-flags="--gtid-mode=OFF --enforce-gtid-consistency=OFF"}.
     */
    public static final String SHARED_SERVER_FLAGS = "capstan.test.server-flags";

    /** The shared embedded server's flags: the defaults plus {@link #SHARED_SERVER_FLAGS}. */
    static ServerOptions forSharedServer() {
        String flags = System.getProperty(SHARED_SERVER_FLAGS, "").trim();
        return flags.isEmpty() ? DEFAULTS : DEFAULTS.withFlag(flags);
    }

    /** The safe defaults: a server capstan accepts. */
    public static ServerOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Adds mysqld flags on top of the defaults. Several flags may be given in one string separated
     * by spaces, e.g. {@code "--gtid-mode=OFF --enforce-gtid-consistency=OFF"}.
     */
    public ServerOptions withFlag(String flag) {
        List<String> next = new ArrayList<>(extraFlags);
        next.addAll(Arrays.asList(flag.trim().split("\\s+")));
        return new ServerOptions(next);
    }

    /**
     * Merges flag lists: for each option the last flag wins and takes the position of its latest
     * mention. {@code --skip-X}, {@code --disable-X}, {@code --enable-X} and {@code --X=...} are
     * the same option X; underscores and dashes are equivalent, as they are for mysqld.
     */
    @SafeVarargs
    static List<String> merge(List<String>... lists) {
        Map<String, String> byOption = new LinkedHashMap<>();
        for (List<String> list : lists) {
            for (String flag : list) {
                String key = optionName(flag);
                byOption.remove(key);
                byOption.put(key, flag);
            }
        }
        return new ArrayList<>(byOption.values());
    }

    /**
     * The option a flag sets, normalized: {@code --skip_log_bin} and {@code --log-bin=x} are
     * "log-bin".
     */
    static String optionName(String flag) {
        String name = flag.startsWith("--") ? flag.substring(2) : flag;
        int eq = name.indexOf('=');
        if (eq >= 0) {
            name = name.substring(0, eq);
        }
        name = name.replace('_', '-').toLowerCase(Locale.ROOT);
        if (name.startsWith("loose-")) {
            name = name.substring("loose-".length());
        }
        for (String prefix : List.of("skip-", "disable-", "enable-")) {
            if (name.startsWith(prefix)) {
                return name.substring(prefix.length());
            }
        }
        return name;
    }

    @Override
    public String toString() {
        return "ServerOptions" + extraFlags;
    }
}
