package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.error.HaltReason;

import org.apache.flink.annotation.Internal;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The settings and global grants a MariaDB server needs, judged on {@link ServerFacts}. Pure: no
 * I/O.
 *
 * <p>No GTID rule applies: a MariaDB with {@code gtid_strict_mode = ON} is captured on its GTIDs
 * (docs/adr/0013, a failover is followed), one without in position mode (binlog file and offset,
 * exact on this one server; docs/adr/0012), and the choice is the server's. Every remedy is
 * MariaDB's syntax: {@code SET GLOBAL} plus the config line under {@code [mariadb]}, since MariaDB
 * has no {@code SET PERSIST}.
 */
@Internal
final class MariaDbRules {

    /** MariaDB 10.11 LTS: the oldest release captured. */
    static final ServerVersion MIN_MARIADB_VERSION = ServerVersion.mariaDb(10, 11, 0);

    static final String BINLOG_MONITOR = "BINLOG MONITOR";

    private MariaDbRules() {}

    static Optional<PreflightFailure> checkVersion(ServerVersion v) {
        if (v.compareTo(MIN_MARIADB_VERSION) >= 0) {
            return Optional.empty();
        }
        return Optional.of(
                new PreflightFailure(
                        HaltReason.UNSUPPORTED_SERVER_VERSION,
                        "server version",
                        v + " (older than MariaDB 10.11, the first supported MariaDB)",
                        "upgrade the server to MariaDB 10.11 or later"));
    }

    static void checkSettings(ServerFacts facts, List<PreflightFailure> out) {
        Optional<String> logBin = facts.variable("log_bin");
        if (!logBin.map(MariaDbRules::isOn).orElse(false)) {
            out.add(
                    new PreflightFailure(
                            HaltReason.BINLOG_DISABLED,
                            "log_bin",
                            found(logBin, "ON"),
                            "log_bin is not dynamic: in my.cnf under [mariadb] set 'log_bin ="
                                    + " mariadb-bin' and a unique non-zero 'server_id', then"
                                    + " restart mariadbd"));
        }
        requireValue(facts, "binlog_format", "ROW", HaltReason.BINLOG_FORMAT_NOT_ROW, out);
        requireValue(facts, "binlog_row_image", "FULL", HaltReason.BINLOG_ROW_IMAGE_NOT_FULL, out);
        requireValue(
                facts, "binlog_row_metadata", "FULL", HaltReason.BINLOG_ROW_METADATA_NOT_FULL, out);
        // Compressed events are a different event type the binlog reader does not decode.
        Optional<String> compress = facts.variable("log_bin_compress");
        if (!compress.map(v -> !isOn(v)).orElse(false)) {
            out.add(
                    new PreflightFailure(
                            HaltReason.BINLOG_COMPRESSION_ON,
                            "log_bin_compress",
                            found(compress, "OFF (compressed binlog events are not decoded)"),
                            remedy("log_bin_compress", "OFF")
                                    + "; files already written compressed cannot be read: start"
                                    + " after them"));
        }
    }

    /**
     * A replica's binary log carries the transactions it applies only with {@code
     * log_slave_updates} ON (MariaDB's name; read-only, so only the config file changes it).
     */
    static void checkReplicaLogsReplicatedChanges(ServerFacts facts, List<PreflightFailure> out) {
        if (!facts.isReplica()) {
            return;
        }
        Optional<String> value = facts.variable("log_slave_updates");
        if (!value.map(MariaDbRules::isOn).orElse(false)) {
            out.add(
                    new PreflightFailure(
                            HaltReason.LOG_REPLICA_UPDATES_OFF,
                            "log_slave_updates",
                            value.map(v -> "is '" + v + "'").orElse("is not a variable")
                                    + " on a replica (the server replicates from a primary), must"
                                    + " be ON: its binary log would lack every replicated change",
                            "log_slave_updates is read-only: set 'log_slave_updates = ON' in"
                                    + " my.cnf under [mariadb] and restart mariadbd; or capture"
                                    + " from the primary"));
        }
    }

    /**
     * REPLICATION SLAVE reads the binary log; BINLOG MONITOR (10.5+) lists its files and position.
     * SHOW GRANTS prints BINLOG MONITOR for a grant of its old name REPLICATION CLIENT, older
     * servers the reverse, and SUPER still allows what it allows.
     */
    static void checkGlobalPrivileges(AccountPrivileges privileges, List<PreflightFailure> out) {
        String account = privileges.quotedAccount();
        if (!privileges.hasGlobal(PreflightRules.REPLICATION_SLAVE)) {
            out.add(missingGlobal(PreflightRules.REPLICATION_SLAVE, account));
        }
        if (!privileges.hasGlobal(BINLOG_MONITOR)
                && !privileges.hasGlobal(PreflightRules.REPLICATION_CLIENT)
                && !privileges.hasGlobal("SUPER")) {
            out.add(missingGlobal(BINLOG_MONITOR, account));
        }
    }

    private static PreflightFailure missingGlobal(String privilege, String account) {
        return new PreflightFailure(
                HaltReason.MISSING_PRIVILEGE,
                "privilege " + privilege,
                "not granted to " + account + " (needed for the binary log)",
                "GRANT " + privilege + " ON *.* TO " + account + ";");
    }

    private static void requireValue(
            ServerFacts facts,
            String variable,
            String required,
            HaltReason reason,
            List<PreflightFailure> out) {
        Optional<String> value = facts.variable(variable);
        if (!value.map(v -> v.trim().equalsIgnoreCase(required)).orElse(false)) {
            out.add(
                    new PreflightFailure(
                            reason,
                            variable,
                            found(value, required),
                            remedy(variable, required)
                                    + "; sessions already open keep the old value, so reconnect"
                                    + " the writing applications"));
        }
    }

    /** SET GLOBAL now, and the config line that keeps the value across a restart. */
    private static String remedy(String variable, String value) {
        return "SET GLOBAL "
                + variable
                + " = "
                + value
                + "; and in my.cnf under [mariadb] '"
                + variable
                + " = "
                + value
                + "' so it survives a restart";
    }

    private static String found(Optional<String> value, String required) {
        return value.map(v -> "is '" + v + "', must be " + required)
                .orElse("is not a variable of this server, must be " + required);
    }

    private static boolean isOn(String value) {
        String v = value.trim().toUpperCase(Locale.ROOT);
        return v.equals("ON") || v.equals("1") || v.equals("TRUE");
    }
}
