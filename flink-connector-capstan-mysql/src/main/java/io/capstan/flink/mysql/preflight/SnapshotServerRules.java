package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Judges the replica the snapshot's chunks are read on ({@code scan.snapshot.hostname}): before
 * anything is read, and for each chunk's G and each connection after. A chunk read there is exact
 * at the replica's {@code gtid_executed} G; the gate compares G with the primary's transactions, so
 * G must be a set of the primary's transactions. Pure: no I/O.
 *
 * <p>Not required of the replica: {@code log_bin}, the row format and {@code log_replica_updates}
 * (its binary log is never read), REPLICATION grants, and {@code read_only = OFF} (the brief lock
 * is a read lock).
 */
@Internal
public final class SnapshotServerRules {

    static final String REMOVE_OPTION =
            " or remove scan.snapshot.hostname to read the snapshot on the primary";

    private SnapshotServerRules() {}

    /**
     * Every reason the replica is unsafe to read the snapshot on, all at once.
     *
     * @param primaryExecuted the primary's {@code gtid_executed}, read after {@code replica}
     * @param primaryPurged the primary's {@code gtid_purged}, read with {@code primaryExecuted}
     */
    public static List<PreflightFailure> check(
            ServerFacts replica,
            GtidSet primaryExecuted,
            GtidSet primaryPurged,
            String primaryAddress,
            Collection<TableId> tables) {
        List<PreflightFailure> failures = new ArrayList<>();
        if (replica.version().isMariaDb()) {
            failures.add(mariaDbRefusal(replica.version()));
            return failures;
        }
        Optional<PreflightFailure> version = PreflightRules.checkVersion(replica.version());
        if (version.isPresent()) {
            failures.add(version.get());
            return failures;
        }
        Optional<String> gtidMode = replica.variable("gtid_mode");
        if (!gtidMode.map(v -> v.trim().equalsIgnoreCase("ON")).orElse(false)) {
            failures.add(
                    new PreflightFailure(
                            HaltReason.GTID_MODE_NOT_ON,
                            "gtid_mode",
                            gtidMode.map(v -> "is '" + v + "'").orElse("is not a variable")
                                    + " on the snapshot's replica, must be ON (a chunk's"
                                    + " position is the replica's gtid_executed)",
                            PreflightRules.gtidModeRemedy(gtidMode.orElse("OFF"), true)
                                    + ";"
                                    + REMOVE_OPTION));
        }
        String executed = replica.variable("gtid_executed").orElse("");
        diverged(executed, primaryExecuted, primaryAddress).ifPresent(failures::add);
        behindPurged(executed, primaryPurged, primaryAddress).ifPresent(failures::add);
        checkTablePrivileges(replica.privileges(), tables, failures);
        return failures;
    }

    /**
     * The snapshot from a replica on MariaDB, refused before anything is read: its chunks are made
     * exact with MySQL GTIDs, and a MariaDB job runs on the primary's binlog positions.
     */
    public static Optional<PreflightFailure> checkPrimary(ServerVersion primary) {
        return primary.isMariaDb() ? Optional.of(mariaDbRefusal(primary)) : Optional.empty();
    }

    private static PreflightFailure mariaDbRefusal(ServerVersion version) {
        return new PreflightFailure(
                HaltReason.INVALID_CONFIGURATION,
                "scan.snapshot.hostname",
                "is set, but a snapshot from a replica is not supported on " + version,
                "remove scan.snapshot.hostname and scan.snapshot.port: read the snapshot from the"
                        + " primary");
    }

    /**
     * The replica's {@code gtid_executed} as a set; empty when it is none this connector reads
     * (then {@link #check} names it).
     */
    public static GtidSet executedOrEmpty(ServerFacts replica) {
        return parsed(replica.variable("gtid_executed").orElse("")).orElse(GtidSet.empty());
    }

    /** {@code gtid_executed} text as the server prints it (a line per uuid), if it is a set. */
    private static Optional<GtidSet> parsed(String executed) {
        try {
            return Optional.of(GtidSet.parse(executed.replace("\n", "").trim()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The replica's transactions the primary has not executed, as a failure; empty if none. */
    static Optional<PreflightFailure> diverged(
            String replicaExecuted, GtidSet primaryExecuted, String primaryAddress) {
        Optional<GtidSet> executed = parsed(replicaExecuted);
        if (executed.isEmpty()) {
            return Optional.of(
                    new PreflightFailure(
                            HaltReason.SNAPSHOT_SERVER_DIVERGED,
                            "gtid_executed",
                            "is not a GTID set this connector reads",
                            "read the snapshot on a replica of "
                                    + primaryAddress
                                    + ";"
                                    + REMOVE_OPTION));
        }
        GtidSet extra = executed.get().subtract(primaryExecuted);
        if (extra.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(
                new PreflightFailure(
                        HaltReason.SNAPSHOT_SERVER_DIVERGED,
                        "gtid_executed",
                        "holds "
                                + extra.transactionCount()
                                + " transaction(s) the primary "
                                + primaryAddress
                                + " has not executed ("
                                + extra
                                + "): the replica diverged (a write made on it directly) or"
                                + " replicates another topology",
                        "point scan.snapshot.hostname at a replica of "
                                + primaryAddress
                                + " that executed no transaction of its own (rebuild it from"
                                + " the primary);"
                                + REMOVE_OPTION));
    }

    /**
     * A warning when the replica takes writes of its own: one with a GTID is caught as divergence,
     * but one without (written with {@code sql_log_bin = 0}, or with the binary log off) cannot be
     * told from the primary's data. Empty when it is {@code super_read_only}.
     */
    public static Optional<String> writableWarning(ServerFacts replica, String replicaAddress) {
        boolean superReadOnly =
                replica.variable("super_read_only")
                        .map(v -> v.trim().equalsIgnoreCase("ON") || v.trim().equals("1"))
                        .orElse(false);
        if (superReadOnly) {
            return Optional.empty();
        }
        return Optional.of(
                "The snapshot's replica "
                        + replicaAddress
                        + " is not super_read_only: a write made on it with a GTID halts the job"
                        + " (snapshot_server_diverged), one without (sql_log_bin = 0, or the"
                        + " binary log off) would go unnoticed into the chunks. Consider SET"
                        + " PERSIST super_read_only = ON on it.");
    }

    /**
     * A replica that has not applied transactions the primary already purged from its binary log
     * would give chunk positions the handoff cannot stream on from ({@code data_gap} at the end of
     * the snapshot): refused before anything is read.
     */
    static Optional<PreflightFailure> behindPurged(
            String replicaExecuted, GtidSet primaryPurged, String primaryAddress) {
        GtidSet missing;
        try {
            missing =
                    primaryPurged.subtract(GtidSet.parse(replicaExecuted.replace("\n", "").trim()));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // reported by diverged()
        }
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(
                new PreflightFailure(
                        HaltReason.DATA_GAP,
                        "gtid_executed",
                        "lacks "
                                + missing.transactionCount()
                                + " transaction(s) the primary "
                                + primaryAddress
                                + " already purged from its binary log ("
                                + missing
                                + "): the replica lags too far (replication stopped?), and the"
                                + " handoff could not stream on from its chunks' positions",
                        "let the replica catch up (START SLAVE / START REPLICA; SHOW REPLICA STATUS"
                                + " shows the lag), keep the primary's binlog longer"
                                + " (binlog_expire_logs_seconds);"
                                + REMOVE_OPTION));
    }

    /**
     * A chunk's G, read on the replica under the brief lock, must hold only transactions the
     * primary had executed when it was asked after the chunk was read: the replica applies only the
     * primary's transactions, so anything else is a divergence the binlog will never show.
     *
     * @throws CapstanHaltException {@code snapshot_server_diverged}
     */
    public static void requireContained(
            String chunkId,
            GtidSet chunkPosition,
            GtidSet primaryExecuted,
            String replicaAddress,
            String primaryAddress) {
        GtidSet extra = chunkPosition.subtract(primaryExecuted);
        if (extra.isEmpty()) {
            return;
        }
        throw new CapstanHaltException(
                HaltReason.SNAPSHOT_SERVER_DIVERGED,
                "chunk "
                        + chunkId
                        + " was read on the snapshot's replica "
                        + replicaAddress
                        + " at a position holding "
                        + extra.transactionCount()
                        + " transaction(s) the primary "
                        + primaryAddress
                        + " has not executed ("
                        + extra
                        + "): the replica diverged. Remedy: point scan.snapshot.hostname at a"
                        + " replica of the primary that executed no transaction of its own, or"
                        + " remove the option, and start the job anew (its chunks read so far"
                        + " cannot be trusted)");
    }

    /**
     * Each chunk connection must reach a GTID server, and the same one as the reader's first
     * connection: the brief lock (one connection) guards the read view (the other) only on one
     * server, and a replica replaced mid-snapshot was never checked.
     *
     * @param pinnedUuid the server_uuid the reader's first chunk connection reached
     * @throws CapstanHaltException {@code gtid_mode_not_on}, {@code snapshot_server_changed}
     */
    public static void requireSameServer(
            String pinnedUuid, String foundUuid, String gtidMode, String replicaAddress) {
        if (!gtidMode.trim().toUpperCase(Locale.ROOT).equals("ON")) {
            throw new CapstanHaltException(
                    HaltReason.GTID_MODE_NOT_ON,
                    "the snapshot's replica "
                            + replicaAddress
                            + " has gtid_mode '"
                            + gtidMode
                            + "', must be ON. Remedy: set gtid_mode = ON on the replica, or remove"
                            + " scan.snapshot.hostname");
        }
        if (!pinnedUuid.equalsIgnoreCase(foundUuid)) {
            throw new CapstanHaltException(
                    HaltReason.SNAPSHOT_SERVER_CHANGED,
                    "the snapshot's replica "
                            + replicaAddress
                            + " was server_uuid "
                            + pinnedUuid
                            + " and is now server_uuid "
                            + foundUuid
                            + " (failed over, replaced, or a load balancer spreading connections)."
                            + " Remedy: point scan.snapshot.hostname at one server, then restart"
                            + " the job from its last checkpoint; the server is checked again");
        }
    }

    /** SELECT and LOCK TABLES on every table: the brief lock and the chunk's rows. */
    private static void checkTablePrivileges(
            AccountPrivileges privileges, Collection<TableId> tables, List<PreflightFailure> out) {
        String account = privileges.quotedAccount();
        Map<String, TreeSet<String>> unlockable = new TreeMap<>();
        for (TableId table : new TreeSet<>(tables)) {
            if (!privileges.hasOnTable(PreflightRules.SELECT, table)) {
                out.add(
                        new PreflightFailure(
                                HaltReason.MISSING_PRIVILEGE,
                                "table " + table + " on the snapshot's replica",
                                "SELECT not granted to " + account,
                                "GRANT SELECT ON " + table.quoted() + " TO " + account + ";"));
            }
            if (!privileges.hasOnTable(PreflightRules.LOCK_TABLES, table)) {
                unlockable
                        .computeIfAbsent(table.database(), k -> new TreeSet<>())
                        .add(table.table());
            }
        }
        unlockable.forEach(
                (schema, names) ->
                        out.add(
                                new PreflightFailure(
                                        HaltReason.MISSING_PRIVILEGE,
                                        "schema "
                                                + schema
                                                + " (tables "
                                                + String.join(", ", names)
                                                + ") on the snapshot's replica",
                                        "LOCK TABLES not granted to "
                                                + account
                                                + " (needed for the brief table lock)",
                                        "GRANT LOCK TABLES ON `"
                                                + schema.replace("`", "``")
                                                + "`.* TO "
                                                + account
                                                + "; (on the primary, so it replicates, or on"
                                                + " the replica)")));
    }
}
