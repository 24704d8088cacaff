package io.capstan.flink.mysql.preflight;

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
 * Judges {@link ServerFacts}: every reason the server is unsafe to capture from, all at once, each
 * with the statement or config line that fixes it. Pure: no I/O.
 *
 * <p>An unsupported server (MariaDB before 10.11, MySQL before {@link #MIN_MYSQL_VERSION}, MySQL 10
 * or later) yields that one failure only: the other rules assume a supported server and would only
 * add noise. MariaDB is judged by {@link MariaDbRules} (it has no {@code gtid_mode} at all).
 */
@Internal
public final class PreflightRules {

    /**
     * The oldest supported MySQL: 8.0.11, the first GA release of 8.0. Everything preflight and the
     * source rely on exists there: {@code binlog_row_metadata} (8.0.1), {@code
     * binlog_row_value_options} (8.0.3), {@code SET PERSIST}, roles and {@code CURRENT_ROLE()}.
     * Releases before it are development milestones. The oldest version integration-tested is
     * 8.0.15 (the embedded test server).
     */
    public static final ServerVersion MIN_MYSQL_VERSION = ServerVersion.mysql(8, 0, 11);

    /** The first major version not yet verified (8.0, 8.1-8.3, 8.4 LTS and 9.x are). */
    public static final int FIRST_UNVERIFIED_MAJOR = 10;

    static final String REPLICATION_SLAVE = "REPLICATION SLAVE";
    static final String REPLICATION_CLIENT = "REPLICATION CLIENT";
    static final String SELECT = "SELECT";
    static final String LOCK_TABLES = "LOCK TABLES";

    private PreflightRules() {}

    /** All failures found, in a stable order; empty when the server is safe for {@code scope}. */
    public static List<PreflightFailure> check(
            ServerFacts facts, Collection<TableId> tables, CaptureScope scope) {
        List<PreflightFailure> failures = new ArrayList<>();
        Optional<PreflightFailure> version = checkVersion(facts.version());
        if (version.isPresent()) {
            failures.add(version.get());
            return failures;
        }
        if (facts.version().isMariaDb()) {
            // no GTID rule: MariaDB runs in position mode
            MariaDbRules.checkSettings(facts, failures);
            MariaDbRules.checkReplicaLogsReplicatedChanges(facts, failures);
            MariaDbRules.checkGlobalPrivileges(facts.privileges(), failures);
            checkTablePrivileges(facts.privileges(), tables, scope, failures);
            return failures;
        }
        checkSettings(facts, failures);
        checkReplicaLogsReplicatedChanges(facts, failures);
        checkUntaggedGtids(facts, failures);
        checkPrivileges(facts.privileges(), tables, scope, failures);
        return failures;
    }

    static Optional<PreflightFailure> checkVersion(ServerVersion v) {
        if (v.isMariaDb()) {
            return MariaDbRules.checkVersion(v);
        }
        String supported = "MySQL 8.0.11 or later 8.0, 8.4 LTS or 9.x";
        if (v.compareTo(MIN_MYSQL_VERSION) < 0) {
            return Optional.of(
                    new PreflightFailure(
                            HaltReason.UNSUPPORTED_SERVER_VERSION,
                            "server version",
                            v + " (older than " + MIN_MYSQL_VERSION.text() + ")",
                            "upgrade the server to " + supported + " (8.4 LTS recommended)"));
        }
        if (v.major() >= FIRST_UNVERIFIED_MAJOR) {
            return Optional.of(
                    new PreflightFailure(
                            HaltReason.UNSUPPORTED_SERVER_VERSION,
                            "server version",
                            v + " (not yet verified with this release of capstan-mysql)",
                            "capture from " + supported + ", or upgrade capstan-mysql"));
        }
        return Optional.empty();
    }

    private static void checkSettings(ServerFacts facts, List<PreflightFailure> out) {
        Optional<String> logBin = facts.variable("log_bin");
        if (!logBin.map(PreflightRules::isOn).orElse(false)) {
            out.add(
                    new PreflightFailure(
                            HaltReason.BINLOG_DISABLED,
                            "log_bin",
                            found(logBin, "ON"),
                            "log_bin is not dynamic: in my.cnf under [mysqld] remove skip-log-bin"
                                    + " / disable-log-bin, set 'log_bin = binlog' and a unique"
                                    + " non-zero 'server_id', then restart mysqld"));
        }
        // binlog_format is deprecated since 8.0.34; once MySQL removes it, ROW is the only format.
        Optional<String> format = facts.variable("binlog_format");
        if (format.isPresent() && !is(format, "ROW")) {
            out.add(
                    dynamic(
                            HaltReason.BINLOG_FORMAT_NOT_ROW,
                            "binlog_format",
                            format,
                            "ROW",
                            "SET PERSIST binlog_format = 'ROW'; sessions already open keep"
                                    + " their format, so reconnect the writing applications"));
        }
        checkDynamic(facts, "binlog_row_image", "FULL", HaltReason.BINLOG_ROW_IMAGE_NOT_FULL, out);
        checkDynamic(
                facts, "binlog_row_metadata", "FULL", HaltReason.BINLOG_ROW_METADATA_NOT_FULL, out);
        Optional<String> valueOptions = facts.variable("binlog_row_value_options");
        if (!is(valueOptions, "")) {
            out.add(
                    dynamic(
                            HaltReason.BINLOG_ROW_VALUE_OPTIONS_SET,
                            "binlog_row_value_options",
                            valueOptions,
                            "empty (partial JSON updates would lose data)",
                            "SET PERSIST binlog_row_value_options = '';"));
        }
        if (positionMode(facts)) {
            return; // no GTIDs: the job runs on binlog positions (docs/adr/0012)
        }
        Optional<String> enforce = facts.variable("enforce_gtid_consistency");
        boolean enforceOn = enforce.map(PreflightRules::isOn).orElse(false);
        if (!enforceOn) {
            out.add(
                    dynamic(
                            HaltReason.ENFORCE_GTID_CONSISTENCY_NOT_ON,
                            "enforce_gtid_consistency",
                            enforce,
                            "ON",
                            "SET PERSIST enforce_gtid_consistency = WARN; then, once the error"
                                    + " log shows no GTID-unsafe statements, SET PERSIST"
                                    + " enforce_gtid_consistency = ON;"));
        }
    }

    /**
     * Whether the server writes transactions without GTIDs ({@code gtid_mode} {@code OFF}, {@code
     * OFF_PERMISSIVE} or {@code ON_PERMISSIVE}), or is a MariaDB without {@code gtid_strict_mode}
     * (whose GTIDs do not order a domain): a job started on it runs on binlog positions, exact on
     * this one server (docs/operations.md, Servers without GTIDs; MariaDB).
     */
    public static boolean positionMode(ServerFacts facts) {
        if (facts.version().isMariaDb()) {
            return !is(facts.variable("gtid_strict_mode"), "ON");
        }
        Optional<String> gtidMode = facts.variable("gtid_mode");
        return gtidMode.isPresent() && !is(gtidMode, "ON");
    }

    /**
     * A replica's binary log carries the transactions it applies only with {@code
     * log_replica_updates} ({@code log_slave_updates} before 8.0.26) ON; OFF, the stream would see
     * the replica's own writes and silently miss every replicated change.
     */
    private static void checkReplicaLogsReplicatedChanges(
            ServerFacts facts, List<PreflightFailure> out) {
        if (!facts.isReplica()) {
            return;
        }
        String name =
                facts.variable("log_replica_updates").isPresent()
                        ? "log_replica_updates"
                        : "log_slave_updates";
        Optional<String> value = facts.variable(name);
        if (!value.map(PreflightRules::isOn).orElse(false)) {
            out.add(
                    new PreflightFailure(
                            HaltReason.LOG_REPLICA_UPDATES_OFF,
                            name,
                            value.map(v -> "is '" + v + "'").orElse("is not a variable")
                                    + " on a replica (the server has a replication channel), must"
                                    + " be ON: its binary log would lack every replicated change",
                            name
                                    + " is read-only (SET PERSIST cannot change it): set '"
                                    + name
                                    + " = ON' in my.cnf under [mysqld] and restart mysqld (or"
                                    + " SET PERSIST_ONLY "
                                    + name
                                    + " = ON; then restart); or capture from the primary"));
        }
    }

    /**
     * MySQL 8.3+ tagged GTIDs ({@code uuid:tag:1-5}) are refused at start: the binlog library
     * cannot read a tagged transaction's GTID event, so a stream meeting one would halt anyway,
     * after the snapshot, or (were it ever let through) could not place the transaction in the
     * processed set.
     */
    private static void checkUntaggedGtids(ServerFacts facts, List<PreflightFailure> out) {
        Optional<String> executed = facts.variable("gtid_executed");
        List<String> tags = executed.map(PreflightRules::gtidTags).orElse(List.of());
        if (!tags.isEmpty()) {
            out.add(
                    new PreflightFailure(
                            HaltReason.TAGGED_GTIDS_UNSUPPORTED,
                            "gtid_executed",
                            "holds tagged GTIDs (tags "
                                    + String.join(", ", tags)
                                    + "), which capstan-mysql cannot stream",
                            "stop writing tagged transactions (SET gtid_next = 'AUTOMATIC:<tag>'"
                                    + " or '<uuid>:<tag>:<n>') on this server; the tagged GTIDs"
                                    + " already executed stay in gtid_executed, so capture from a"
                                    + " server that never executed any (for example a replica"
                                    + " rebuilt from a backup of the data without them)"));
        }
    }

    /**
     * The distinct tags in a GTID set as the server prints it, sorted: in the canonical text a tag
     * is a token after a UUID that starts with a letter or '_', where ranges start with a digit.
     * Empty for a set MySQL would not print (the stream meets it later).
     */
    static List<String> gtidTags(String gtidSetText) {
        String canonical;
        try {
            canonical = GtidSet.parse(gtidSetText.replace("\n", "").trim()).toString();
        } catch (IllegalArgumentException e) {
            return List.of();
        }
        TreeSet<String> tags = new TreeSet<>();
        for (String uuidPart : canonical.split(",")) {
            String[] tokens = uuidPart.split(":");
            for (int i = 1; i < tokens.length; i++) {
                char first = tokens[i].isEmpty() ? '0' : tokens[i].charAt(0);
                if (Character.isLetter(first) || first == '_') {
                    tags.add(tokens[i]);
                }
            }
        }
        return List.copyOf(tags);
    }

    /** The online procedure from the current mode, one step at a time as MySQL requires. */
    public static String gtidModeRemedy(String current, boolean enforceOn) {
        List<String> steps = new ArrayList<>();
        if (!enforceOn) {
            steps.add("SET PERSIST enforce_gtid_consistency = ON;");
        }
        String mode = current.trim().toUpperCase(Locale.ROOT);
        if (mode.equals("OFF")) {
            steps.add("SET PERSIST gtid_mode = OFF_PERMISSIVE;");
        }
        if (mode.equals("OFF") || mode.equals("OFF_PERMISSIVE")) {
            steps.add("SET PERSIST gtid_mode = ON_PERMISSIVE;");
        }
        steps.add(
                "wait until SHOW STATUS LIKE 'Ongoing_anonymous_transaction_count' shows 0, then"
                        + " SET PERSIST gtid_mode = ON;");
        return String.join(" ", steps)
                + " (on every server of the topology; or set gtid_mode = ON and"
                + " enforce_gtid_consistency = ON in my.cnf and restart)";
    }

    private static void checkDynamic(
            ServerFacts facts,
            String variable,
            String required,
            HaltReason reason,
            List<PreflightFailure> out) {
        Optional<String> value = facts.variable(variable);
        if (!is(value, required)) {
            out.add(
                    dynamic(
                            reason,
                            variable,
                            value,
                            required,
                            "SET PERSIST " + variable + " = '" + required + "';"));
        }
    }

    private static PreflightFailure dynamic(
            HaltReason reason,
            String variable,
            Optional<String> value,
            String required,
            String remedy) {
        return new PreflightFailure(reason, variable, found(value, required), remedy);
    }

    private static String found(Optional<String> value, String required) {
        return value.map(v -> "is '" + v + "', must be " + required)
                .orElse("is not a variable of this server, must be " + required);
    }

    private static boolean is(Optional<String> value, String expected) {
        return value.map(v -> v.trim().equalsIgnoreCase(expected)).orElse(false);
    }

    private static boolean isOn(String value) {
        String v = value.trim().toUpperCase(Locale.ROOT);
        return v.equals("ON") || v.equals("1") || v.equals("TRUE");
    }

    private static void checkPrivileges(
            AccountPrivileges privileges,
            Collection<TableId> tables,
            CaptureScope scope,
            List<PreflightFailure> out) {
        String account = privileges.quotedAccount();
        for (String global : List.of(REPLICATION_SLAVE, REPLICATION_CLIENT)) {
            if (!privileges.hasGlobal(global)) {
                out.add(
                        new PreflightFailure(
                                HaltReason.MISSING_PRIVILEGE,
                                "privilege " + global,
                                "not granted to " + account + " (needed for the binary log)",
                                "GRANT " + global + " ON *.* TO " + account + ";"));
            }
        }
        checkTablePrivileges(privileges, tables, scope, out);
    }

    /** SELECT on every table and, for a snapshot, LOCK TABLES on their schemas (both servers). */
    static void checkTablePrivileges(
            AccountPrivileges privileges,
            Collection<TableId> tables,
            CaptureScope scope,
            List<PreflightFailure> out) {
        String account = privileges.quotedAccount();
        // LOCK TABLES exists only at global and schema level: one failure per schema.
        Map<String, TreeSet<String>> unlockable = new TreeMap<>();
        for (TableId table : new TreeSet<>(tables)) {
            if (!privileges.hasOnTable(SELECT, table)) {
                out.add(
                        new PreflightFailure(
                                HaltReason.MISSING_PRIVILEGE,
                                "table " + table,
                                "SELECT not granted to " + account,
                                "GRANT SELECT ON " + table.quoted() + " TO " + account + ";"));
            }
            // Only the snapshot locks tables; a stream-only source must not ask for more.
            if (scope == CaptureScope.SNAPSHOT_AND_BINLOG
                    && !privileges.hasOnTable(LOCK_TABLES, table)) {
                unlockable
                        .computeIfAbsent(table.database(), k -> new TreeSet<>())
                        .add(table.table());
            }
        }
        for (Map.Entry<String, TreeSet<String>> e : unlockable.entrySet()) {
            out.add(
                    new PreflightFailure(
                            HaltReason.MISSING_PRIVILEGE,
                            "schema "
                                    + e.getKey()
                                    + " (tables "
                                    + String.join(", ", e.getValue())
                                    + ")",
                            "LOCK TABLES not granted to "
                                    + account
                                    + " (needed for the snapshot's brief table lock)",
                            "GRANT LOCK TABLES ON "
                                    + quoteIdentifier(e.getKey())
                                    + ".* TO "
                                    + account
                                    + ";"));
        }
    }

    private static String quoteIdentifier(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }
}
