package io.capstan.flink.mysql.preflight;

import org.apache.flink.annotation.Internal;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An immutable snapshot of what preflight judges: the server's version, the global variables
 * preflight reads ({@link #VARIABLES}) and the connecting account's effective privileges.
 *
 * <p>Variables are settings, not row values, so they may appear in messages. A variable the server
 * does not know is absent (an older or a different server).
 */
@Internal
public final class ServerFacts {

    /** The global variables preflight reads, by their {@code SHOW VARIABLES} names. */
    public static final List<String> VARIABLES =
            List.of(
                    "log_bin",
                    "binlog_format",
                    "binlog_row_image",
                    "binlog_row_metadata",
                    "binlog_row_value_options",
                    // MariaDB's compressed binlog events, which the stream cannot decode
                    "log_bin_compress",
                    "gtid_mode",
                    "enforce_gtid_consistency",
                    // MariaDB: with it ON the job runs on MariaDB's GTIDs (docs/adr/0013)
                    "gtid_strict_mode",
                    "partial_revokes",
                    "lower_case_table_names",
                    // a replica's binary log carries the replicated transactions only with it ON
                    "log_slave_updates",
                    "log_replica_updates",
                    "gtid_executed",
                    // the binlog retention the snapshot's duration is weighed against
                    "binlog_expire_logs_seconds",
                    "expire_logs_days",
                    "binlog_expire_logs_auto_purge",
                    // the snapshot's replica: writes made on it are caught only with a GTID
                    "super_read_only");

    private final ServerVersion version;
    private final Map<String, String> variables;
    private final AccountPrivileges privileges;
    private final boolean replica;

    /** Facts of a server that is not a replica. */
    public ServerFacts(
            ServerVersion version, Map<String, String> variables, AccountPrivileges privileges) {
        this(version, variables, privileges, false);
    }

    /**
     * @param replica whether the server has a replication channel configured (it applies another
     *     server's transactions)
     */
    public ServerFacts(
            ServerVersion version,
            Map<String, String> variables,
            AccountPrivileges privileges,
            boolean replica) {
        this.replica = replica;
        this.version = Objects.requireNonNull(version, "version");
        Map<String, String> copy = new TreeMap<>();
        variables.forEach((k, v) -> copy.put(k.toLowerCase(Locale.ROOT), v == null ? "" : v));
        this.variables = Collections.unmodifiableMap(copy);
        this.privileges = Objects.requireNonNull(privileges, "privileges");
    }

    public ServerVersion version() {
        return version;
    }

    /** The global value of a variable, empty if the server has no such variable. */
    public Optional<String> variable(String name) {
        return Optional.ofNullable(variables.get(name.toLowerCase(Locale.ROOT)));
    }

    public Map<String, String> variables() {
        return variables;
    }

    public AccountPrivileges privileges() {
        return privileges;
    }

    /** Whether the server has a replication channel configured: it is some server's replica. */
    public boolean isReplica() {
        return replica;
    }

    @Override
    public String toString() {
        return "ServerFacts{version="
                + version
                + ", replica="
                + replica
                + ", variables="
                + variables
                + ", "
                + privileges
                + "}";
    }
}
