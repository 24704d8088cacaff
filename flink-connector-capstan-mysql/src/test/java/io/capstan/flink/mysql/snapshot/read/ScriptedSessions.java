package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Fake JDBC sessions for the brief lock's unit tests: the first session opened is A, the second B;
 * every statement, and every close, goes into one {@link #log} as {@code "A: <sql>"} or {@code "B:
 * <sql>"}. A statement starting with a scripted prefix fails with the scripted error codes, one per
 * execution. B answers the read view's multi-statement with G (a server with GTIDs) and a
 * definition.
 */
final class ScriptedSessions implements ChunkConnections.Opener {

    final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
    final List<MySqlConnectionConfig> opened = new ArrayList<>();
    private final Map<String, Deque<Integer>> failures = new HashMap<>();
    private final String gtidExecuted;
    private final String showCreateTable;

    ScriptedSessions(String gtidExecuted, String showCreateTable) {
        this.gtidExecuted = gtidExecuted;
        this.showCreateTable = showCreateTable;
    }

    /**
     * The next statement on {@code session} ("A" or "B") starting with {@code prefix} fails with
     * {@code errorCode}.
     */
    ScriptedSessions failNext(String session, String prefix, int errorCode) {
        failures.computeIfAbsent(session + ": " + prefix, k -> new ArrayDeque<>()).add(errorCode);
        return this;
    }

    @Override
    public Connection open(MySqlConnectionConfig config) {
        opened.add(config);
        return session(opened.size() == 1 ? "A" : "B");
    }

    private Connection session(String name) {
        boolean[] closed = {false};
        InvocationHandler h =
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "createStatement":
                            return statement(name);
                        case "getMetaData":
                            return mysqlMetaData();
                        case "isClosed":
                            return closed[0];
                        case "close":
                        case "abort":
                            closed[0] = true;
                            log.add(name + ": " + method.getName());
                            return null;
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                };
        return (Connection)
                Proxy.newProxyInstance(
                        getClass().getClassLoader(), new Class<?>[] {Connection.class}, h);
    }

    /** A MySQL server's handshake, as {@code ServerDialect.of} reads it. */
    private DatabaseMetaData mysqlMetaData() {
        InvocationHandler h =
                (proxy, method, args) -> {
                    if (method.getName().equals("getDatabaseProductVersion")) {
                        return "8.0.15";
                    }
                    throw new UnsupportedOperationException(method.getName());
                };
        return (DatabaseMetaData)
                Proxy.newProxyInstance(
                        getClass().getClassLoader(), new Class<?>[] {DatabaseMetaData.class}, h);
    }

    private Statement statement(String session) {
        Deque<ResultSet> results = new ArrayDeque<>();
        ResultSet[] current = {null};
        InvocationHandler h =
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "execute":
                            String sql = (String) args[0];
                            String entry = session + ": " + sql;
                            log.add(entry);
                            for (Map.Entry<String, Deque<Integer>> f : failures.entrySet()) {
                                if (entry.startsWith(f.getKey()) && !f.getValue().isEmpty()) {
                                    throw new SQLException(
                                            "scripted", "HY000", f.getValue().poll());
                                }
                            }
                            if (sql.startsWith("START TRANSACTION")) {
                                results.add(resultSet(gtidExecuted, "ON", SERVER_UUID));
                                results.add(resultSet());
                                results.add(resultSet(showCreateTable));
                            }
                            return false;
                        case "getMoreResults":
                            current[0] = results.poll();
                            return current[0] != null;
                        case "getResultSet":
                            return current[0];
                        case "setEscapeProcessing":
                        case "close":
                            return null;
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                };
        return (Statement)
                Proxy.newProxyInstance(
                        getClass().getClassLoader(), new Class<?>[] {Statement.class}, h);
    }

    /** A server with GTIDs: its read view's G is its gtid_executed. */
    private static final String SERVER_UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

    /** One row of these columns (one value: every column is it), or no row without a value. */
    private ResultSet resultSet(String... columns) {
        boolean[] read = {false};
        InvocationHandler h =
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "next":
                            boolean has = columns.length > 0 && !read[0];
                            read[0] = true;
                            return has;
                        case "getString":
                            return columns[Math.min((Integer) args[0], columns.length) - 1];
                        case "close":
                            return null;
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                };
        return (ResultSet)
                Proxy.newProxyInstance(
                        getClass().getClassLoader(), new Class<?>[] {ResultSet.class}, h);
    }
}
