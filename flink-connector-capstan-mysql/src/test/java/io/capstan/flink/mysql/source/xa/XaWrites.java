package io.capstan.flink.mysql.source.xa;

import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * XA transactions on workload tables ({@code (id, seq, ver, payload)}, see {@code Workload}): each
 * prepared on a session of its own, which then disconnects (MySQL 8.0 keeps the prepared
 * transaction), so that it stays pending while other sessions write.
 */
final class XaWrites {

    private final MySqlTestDatabase db;

    XaWrites(MySqlTestDatabase db) {
        this.db = db;
    }

    /** Inserts rows {@code seq = from..to} in XA transaction {@code xid} and prepares it. */
    void prepare(String xid, String table, long from, long to) throws SQLException {
        try (Connection c = db.openRootConnection();
                Statement st = c.createStatement()) {
            st.execute("XA START '" + xid + "'");
            st.execute(insert(table, from, to));
            st.execute("XA END '" + xid + "'");
            st.execute("XA PREPARE '" + xid + "'");
        }
    }

    void commit(String xid) throws SQLException {
        run("XA COMMIT '" + xid + "'");
    }

    void rollback(String xid) throws SQLException {
        run("XA ROLLBACK '" + xid + "'");
    }

    /** Inserts rows {@code seq = from..to} in one XA transaction committed in one phase. */
    void onePhase(String xid, String table, long from, long to) throws SQLException {
        try (Connection c = db.openRootConnection();
                Statement st = c.createStatement()) {
            st.execute("XA START '" + xid + "'");
            st.execute(insert(table, from, to));
            st.execute("XA END '" + xid + "'");
            st.execute("XA COMMIT '" + xid + "' ONE PHASE");
        }
    }

    /**
     * The change lines of rows {@code from..to} inserted into {@code table}, added to {@code out}.
     */
    static void expectInserts(List<String> out, String table, long from, long to) {
        for (long i = from; i <= to; i++) {
            out.add(table + "|c|" + i + "|1");
        }
    }

    private void run(String sql) throws SQLException {
        try (Connection c = db.openRootConnection();
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static String insert(String table, long from, long to) {
        StringBuilder sql = new StringBuilder("INSERT INTO " + table + " VALUES ");
        for (long i = from; i <= to; i++) {
            sql.append(i == from ? "" : ",").append('(').append(i).append(',').append(i);
            sql.append(",1,'xa')");
        }
        return sql.toString();
    }
}
