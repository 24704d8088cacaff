package io.capstan.flink.mysql.connect;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.gtid.MariaDbGtidAxes;

import org.apache.flink.annotation.Internal;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;

/**
 * The SQL expressions that read who a server is and its GTID state, in the server's own terms.
 *
 * <p>MySQL names itself by {@code server_uuid} and keeps {@code gtid_executed}, {@code gtid_purged}
 * and {@code gtid_mode}. MariaDB has none of these variables. Its GTIDs are exact positions only
 * under {@code gtid_strict_mode} (docs/adr/0013): with it on, its gtid mode reads as {@link
 * #MARIADB_STRICT_GTID_MODE} and its executed set is {@code @@gtid_binlog_state} ({@link
 * MariaDbGtidAxes}); with it off the job runs on binlog positions (position mode, docs/adr/0012)
 * and the gtid mode reads as {@link #MARIADB_GTID_MODE}. MariaDB's purged set is not a variable
 * (the position before its oldest binary log file is read apart), so the expression is empty. Its
 * <i>server identity</i> (the {@code server_uuid} of a MySQL server) is a name-based uuid of {@code
 * server_id} and {@code log_bin_basename}: a replica promoted in a failover has another {@code
 * server_id} (replication requires distinct ones), so its binlog positions lie on another axis and
 * a resume there in position mode halts, as on MySQL without GTIDs.
 *
 * <p>Each query selects these expressions and passes the identity column through {@link
 * #serverIdentity(String)}; the dialect is read from the connection's handshake, without a round
 * trip.
 */
@Internal
public enum ServerDialect {
    MYSQL(
            "@@global.gtid_executed",
            "@@global.gtid_purged",
            "@@global.gtid_mode",
            "@@global.server_uuid"),
    MARIADB(
            "@@global.gtid_binlog_state",
            "''",
            "IF(@@global.gtid_strict_mode, '"
                    + ServerDialect.MARIADB_STRICT_GTID_MODE
                    + "', '"
                    + ServerDialect.MARIADB_GTID_MODE
                    + "')",
            "CONCAT('"
                    + ServerDialect.MARIADB_IDENTITY_PREFIX
                    + "', @@global.server_id, ':',"
                    + " @@global.log_bin_basename)");

    /**
     * What a MariaDB server's gtid mode reads as without {@code gtid_strict_mode}: not {@code ON},
     * so the job runs on binlog positions.
     */
    public static final String MARIADB_GTID_MODE = "none (MariaDB, gtid_strict_mode OFF)";

    /** What a MariaDB server's gtid mode reads as under {@code gtid_strict_mode}: on GTIDs. */
    public static final String MARIADB_STRICT_GTID_MODE = "ON (MariaDB, gtid_strict_mode)";

    private static final String MARIADB_IDENTITY_PREFIX = "mariadb:";

    private final String gtidExecuted;
    private final String gtidPurged;
    private final String gtidMode;
    private final String serverIdentity;

    ServerDialect(String gtidExecuted, String gtidPurged, String gtidMode, String serverIdentity) {
        this.gtidExecuted = gtidExecuted;
        this.gtidPurged = gtidPurged;
        this.gtidMode = gtidMode;
        this.serverIdentity = serverIdentity;
    }

    /**
     * {@code SELECT 1 FROM table LIMIT 0} given up after {@code patience}, a wait for the table's
     * metadata lock included, failing as {@link SqlErrors#isStatementTimeout}: MySQL's optimizer
     * hint, which MariaDB ignores, or MariaDB's {@code SET STATEMENT max_statement_time}.
     */
    public String boundedTableTouch(String quotedTable, Duration patience) {
        return this == MARIADB
                ? String.format(
                        Locale.ROOT,
                        "SET STATEMENT max_statement_time = %.3f FOR SELECT 1 FROM %s LIMIT 0",
                        patience.toMillis() / 1000.0,
                        quotedTable)
                : "SELECT /*+ MAX_EXECUTION_TIME("
                        + patience.toMillis()
                        + ") */ 1 FROM "
                        + quotedTable
                        + " LIMIT 0";
    }

    /** The dialect of the server at the other end, from its handshake's version string. */
    public static ServerDialect of(Connection c) throws SQLException {
        String version = c.getMetaData().getDatabaseProductVersion();
        return version != null && version.toLowerCase(Locale.ROOT).contains("mariadb")
                ? MARIADB
                : MYSQL;
    }

    /** An expression for {@code gtid_executed} ({@code @@gtid_binlog_state} on MariaDB). */
    public String gtidExecuted() {
        return gtidExecuted;
    }

    /** An expression for {@code gtid_purged} (empty on MariaDB). */
    public String gtidPurged() {
        return gtidPurged;
    }

    /** An expression for {@code gtid_mode} (on MariaDB one of its two constants). */
    public String gtidMode() {
        return gtidMode;
    }

    /** Whether a value of {@link #gtidMode()} means a job runs on GTIDs. */
    public static boolean gtidsOn(String gtidMode) {
        return "ON".equalsIgnoreCase(gtidMode) || MARIADB_STRICT_GTID_MODE.equals(gtidMode);
    }

    /** Whether a value of {@link #gtidMode()} is a MariaDB server's. */
    public static boolean isMariaDb(String gtidMode) {
        return MARIADB_GTID_MODE.equals(gtidMode) || MARIADB_STRICT_GTID_MODE.equals(gtidMode);
    }

    /**
     * The value of {@link #gtidExecuted()} or {@link #gtidPurged()} as a set (nullable): MySQL's
     * GTID set text, whose long sets the server separates by ",\n"; MariaDB's binlog state.
     *
     * @throws IllegalArgumentException for text that is not such a set
     */
    public GtidSet gtidSet(String text) {
        String t = text == null ? "" : text.replace("\n", "").trim();
        return this == MARIADB ? MariaDbGtidAxes.ofState(t) : GtidSet.parse(t);
    }

    /** An expression whose value {@link #serverIdentity(String)} turns into the server identity. */
    public String serverIdentityExpression() {
        return serverIdentity;
    }

    /**
     * The server identity from the value of {@link #serverIdentityExpression()}: MySQL's {@code
     * server_uuid} as it is, MariaDB's identity text as its name-based uuid.
     *
     * @throws SQLException when the value is missing (MariaDB without a binary log)
     */
    public static String serverIdentity(String value) throws SQLException {
        if (value == null) {
            throw new SQLException(
                    "the server identity is missing (on MariaDB: the binary log is off)");
        }
        if (value.startsWith(MARIADB_IDENTITY_PREFIX)) {
            return UUID.nameUUIDFromBytes(value.getBytes(StandardCharsets.UTF_8)).toString();
        }
        return value;
    }
}
