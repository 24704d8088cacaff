package io.capstan.flink.mysql.source.failover;

import io.capstan.flink.mysql.testing.MySqlServer;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The writes of a failover test to table {@code t (id, seq, ver, payload)} of one database, sent to
 * whichever server is primary at the time, one row per transaction, with the line {@link
 * io.capstan.flink.mysql.source.it.ChangeLineDeserializer} must produce for each; and the table's
 * state as a server holds it or as the change lines build it.
 */
final class FailoverWrites {

    private final String database;
    private final List<String> expected = new ArrayList<>();
    private final Map<Long, Integer> versions = new TreeMap<>();

    FailoverWrites(String database) {
        this.database = database;
    }

    List<String> expected() {
        return expected;
    }

    /** Inserts rows {@code from..to} at version 1. */
    void insert(MySqlServer primary, long from, long to) throws SQLException {
        try (Connection c = open(primary);
                Statement s = c.createStatement()) {
            for (long id = from; id <= to; id++) {
                s.executeUpdate("INSERT INTO t VALUES (" + id + "," + id + ",1,'failover')");
                versions.put(id, 1);
                expected.add("t|c|" + id + "|1");
            }
        }
    }

    /** Bumps the version of rows {@code from..to}. */
    void update(MySqlServer primary, long from, long to) throws SQLException {
        try (Connection c = open(primary);
                Statement s = c.createStatement()) {
            for (long id = from; id <= to; id++) {
                s.executeUpdate("UPDATE t SET ver = ver + 1 WHERE id = " + id);
                int v = versions.get(id);
                versions.put(id, v + 1);
                expected.add("t|u|" + id + "|" + v + ">" + (v + 1) + "|" + id + ">" + id);
            }
        }
    }

    /** Deletes rows {@code from..to}. */
    void delete(MySqlServer primary, long from, long to) throws SQLException {
        try (Connection c = open(primary);
                Statement s = c.createStatement()) {
            for (long id = from; id <= to; id++) {
                s.executeUpdate("DELETE FROM t WHERE id = " + id);
                expected.add("t|d|" + id + "|" + versions.remove(id));
            }
        }
    }

    /** The table on {@code server}: version by id. */
    Map<Long, Integer> tableOn(MySqlServer server) throws SQLException {
        Map<Long, Integer> rows = new TreeMap<>();
        try (Connection c = open(server);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, ver FROM t")) {
            while (rs.next()) {
                rows.put(rs.getLong(1), rs.getInt(2));
            }
        }
        return rows;
    }

    /** The table the change lines build, applied in order: version by id. */
    static Map<Long, Integer> replay(List<String> lines) {
        Map<Long, Integer> rows = new TreeMap<>();
        for (String line : lines) {
            String[] f = line.split("\\|");
            long id = Long.parseLong(f[2]);
            switch (f[1]) {
                case "c" -> rows.put(id, Integer.parseInt(f[3]));
                case "u" -> rows.put(id, Integer.parseInt(f[3].substring(f[3].indexOf('>') + 1)));
                case "d" -> rows.remove(id);
                default -> throw new IllegalArgumentException(line);
            }
        }
        return rows;
    }

    private Connection open(MySqlServer server) throws SQLException {
        Connection c = server.openRootConnection();
        c.setCatalog(database);
        return c;
    }
}
