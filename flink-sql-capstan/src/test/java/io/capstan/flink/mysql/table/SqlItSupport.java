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
