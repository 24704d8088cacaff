package io.capstan.flink.mysql.preflight;

import org.apache.flink.annotation.Internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@link ServerFacts} over JDBC with statements that need no privilege beyond logging in and
 * work on MySQL 8.0, 8.4 and 9.x and MariaDB 10.11+ (and far enough on older servers for preflight
 * to name them unsupported).
 *
 * <p>Privileges come from {@code SHOW GRANTS FOR CURRENT_USER() USING <active roles>}: it shows the
 * account's own grants, its partial revokes and the privileges of the roles active at login
 * (default roles, or all granted roles with {@code activate_all_roles_on_login}) — the same
 * privileges every connection of the connector has, since it never runs {@code SET ROLE}. On
 * MariaDB, which has no {@code USING}, the bare {@code SHOW GRANTS} shows the same: the account's
 * grants and those of its active role and of the roles granted to that role.
 */
@Internal
public final class ServerFactsReader {

    private ServerFactsReader() {}

    public static ServerFacts read(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement()) {
            String version;
            String comment;
            String currentUser;
            try (ResultSet rs =
                    st.executeQuery("SELECT @@version, @@version_comment, CURRENT_USER()")) {
                rs.next();
                version = rs.getString(1);
                comment = rs.getString(2);
                currentUser = rs.getString(3);
            }
            ServerVersion serverVersion = ServerVersion.parse(version, comment);
            Map<String, String> variables = readVariables(st);
            String[] account = AccountPrivileges.splitAccount(currentUser);
            List<Grant> grants =
                    GrantParser.parseAll(
                            serverVersion.isMariaDb()
                                    // MariaDB's bare SHOW GRANTS adds the active role's grants
                                    // and those of the roles granted to it
                                    ? readGrantLines(st, "SHOW GRANTS")
                                    : readGrantLines(
                                            st, grantsSql(activeRoles(st, serverVersion))));
            AccountPrivileges privileges =
                    new AccountPrivileges(
                            account[0],
                            account[1],
                            grants,
                            !isOn(variables.get("partial_revokes")),
                            !"0"
                                    .equals(
                                            variables
                                                    .getOrDefault("lower_case_table_names", "0")
                                                    .trim()));
            return new ServerFacts(
                    serverVersion, variables, privileges, hasReplicationChannel(st, serverVersion));
        }
    }

    /**
     * Whether the server is a replica: {@code SHOW REPLICA STATUS} (8.0.22+; {@code SHOW SLAVE
     * STATUS} before) lists a row per configured channel, stopped ones too. It needs REPLICATION
     * CLIENT, which the connector needs anyway; without it the rules report that privilege, so the
     * server counts as no replica here rather than failing the read.
     */
    private static boolean hasReplicationChannel(Statement st, ServerVersion version)
            throws SQLException {
        if (version.isMariaDb()) {
            return isMariaDbReplica(st);
        }
        String sql = version.isMySqlAtLeast(8, 0, 22) ? "SHOW REPLICA STATUS" : "SHOW SLAVE STATUS";
        try (ResultSet rs = st.executeQuery(sql)) {
            return rs.next();
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * {@code SHOW ALL SLAVES STATUS} lists every replication connection, stopped ones too, but
     * needs SLAVE MONITOR, which the connector does not otherwise need. Without it, the server
     * counts as a replica when a replication thread runs or it has applied a replicated GTID: signs
     * any account may read, so a missing grant does not wave a replica through as a primary.
     */
    private static boolean isMariaDbReplica(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SHOW ALL SLAVES STATUS")) {
            return rs.next();
        } catch (SQLException e) {
            // not allowed: judged by the signs below
        }
        try (ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE 'Slaves_running'")) {
            if (rs.next() && !"0".equals(rs.getString(2).trim())) {
                return true;
            }
        }
        try (ResultSet rs = st.executeQuery("SELECT @@GLOBAL.gtid_slave_pos")) {
            rs.next();
            String pos = rs.getString(1);
            return pos != null && !pos.isBlank();
        }
    }

    private static Map<String, String> readVariables(Statement st) throws SQLException {
        // SHOW GLOBAL VARIABLES returns only the variables the server has: no error for a name
        // an older or a different server does not know.
        StringBuilder sql = new StringBuilder("SHOW GLOBAL VARIABLES WHERE Variable_name IN (");
        for (int i = 0; i < ServerFacts.VARIABLES.size(); i++) {
            sql.append(i == 0 ? "'" : ", '").append(ServerFacts.VARIABLES.get(i)).append("'");
        }
        sql.append(")");
        Map<String, String> variables = new HashMap<>();
        try (ResultSet rs = st.executeQuery(sql.toString())) {
            while (rs.next()) {
                variables.put(rs.getString(1), rs.getString(2));
            }
        }
        return variables;
    }

    /** The session's active roles as CURRENT_ROLE() prints them, or null for none. */
    private static String activeRoles(Statement st, ServerVersion version) throws SQLException {
        if (!version.isMySqlAtLeast(8, 0, 0)) {
            return null; // no roles before MySQL 8.0 (and MariaDB's differ)
        }
        try (ResultSet rs = st.executeQuery("SELECT CURRENT_ROLE()")) {
            rs.next();
            String roles = rs.getString(1);
            return roles == null || roles.isBlank() || roles.equalsIgnoreCase("NONE")
                    ? null
                    : roles;
        }
    }

    private static String grantsSql(String activeRoles) {
        // The role list comes from the server's own CURRENT_ROLE(): quoted account names.
        return activeRoles == null
                ? "SHOW GRANTS FOR CURRENT_USER()"
                : "SHOW GRANTS FOR CURRENT_USER() USING " + activeRoles;
    }

    private static List<String> readGrantLines(Statement st, String sql) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                lines.add(rs.getString(1));
            }
        }
        return lines;
    }

    private static boolean isOn(String value) {
        return value != null && (value.equalsIgnoreCase("ON") || value.equals("1"));
    }
}
