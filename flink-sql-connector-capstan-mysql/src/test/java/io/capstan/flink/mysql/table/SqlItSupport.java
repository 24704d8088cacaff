package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.testing.MySqlAccount;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** Table DDL and positions for the SQL ITs. */
final class SqlItSupport {

    private SqlItSupport() {}

    static StreamTableEnvironment tableEnv() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        return StreamTableEnvironment.create(env);
    }

    /** The server's {@code gtid_executed} now: a start position just before the next write. */
    static String gtidExecuted(MySqlTestDatabase db) throws SQLException {
        try (Connection c = db.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT @@global.gtid_executed")) {
            rs.next();
            return rs.getString(1).replace("\n", "");
        }
    }

    /** Options for the connector user on the test database, starting after {@code gtidSet}. */
    static Map<String, String> options(MySqlTestDatabase db, String tableName, String gtidSet) {
        MySqlAccount c = db.connectorAccount();
        Map<String, String> o = new LinkedHashMap<>();
        o.put("connector", "capstan-mysql");
        o.put("hostname", c.hostname());
        o.put("port", Integer.toString(c.port()));
        o.put("username", c.username());
        o.put("password", c.password());
        o.put("database-name", db.name());
        o.put("table-name", tableName);
        o.put("server-id", "5400-5408");
        o.put("scan.startup.mode", "specific-offset");
        o.put("scan.startup.specific-offset.gtid-set", gtidSet);
        return o;
    }

    /** Options for the connector user on the test database, in the default 'initial' mode. */
    static Map<String, String> initialOptions(MySqlTestDatabase db, String tableName) {
        Map<String, String> o = options(db, tableName, "");
        o.remove("scan.startup.mode");
        o.remove("scan.startup.specific-offset.gtid-set");
        return o;
    }

    /** Ids of the binlog connections of the connector user now open. */
    static java.util.Set<Long> binlogDumpThreads(MySqlTestDatabase db) throws SQLException {
        java.util.Set<Long> ids = new java.util.HashSet<>();
        try (Connection c = db.openRootConnection();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND LIKE"
                                        + " 'Binlog Dump%' AND USER = '"
                                        + db.connectorAccount().username()
                                        + "'")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    /**
     * Waits for a binlog connection of the connector user that was not open {@code before}: in
     * 'initial' mode, the end of the snapshot.
     */
    static void awaitBinlogReader(
            MySqlTestDatabase db, java.util.Set<Long> before, java.time.Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            java.util.Set<Long> now = binlogDumpThreads(db);
            now.removeAll(before);
            if (!now.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the binlog reader did not connect in time");
            }
            Thread.sleep(20);
        }
    }

    static String createTable(String name, String columns, Map<String, String> options) {
        return "CREATE TEMPORARY TABLE "
                + name
                + " ("
                + columns
                + ") WITH ("
                + options.entrySet().stream()
                        .map(
                                e ->
                                        "'"
                                                + e.getKey()
                                                + "' = '"
                                                + e.getValue().replace("'", "''")
                                                + "'")
                        .collect(Collectors.joining(", "))
                + ")";
    }
}
