package io.capstan.flink.mysql.source.it;

import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a known sequence of changes to workload tables {@code (id BIGINT PRIMARY KEY, seq BIGINT,
 * ver INT, payload VARCHAR)} and records, for each change, the line {@link ChangeLineDeserializer}
 * must produce for it. {@code seq} never changes, so it names a row across key-changing updates;
 * {@code ver} grows with every update, so every change has a unique line.
 */
public final class Workload {

    private final MySqlTestDatabase db;
    private final String payload;
    private final List<String> expected = new ArrayList<>();

    public Workload(MySqlTestDatabase db, String payload) {
        this.db = db;
        this.payload = payload;
    }

    public static String createTable(String table) {
        return "CREATE TABLE "
                + table
                + " (id BIGINT PRIMARY KEY, seq BIGINT NOT NULL,"
                + " ver INT NOT NULL, payload VARCHAR(200))";
    }

    /** Every expected change line, in commit order. */
    public List<String> expected() {
        return expected;
    }

    /**
     * Inserts rows {@code seq = from..to} (id = seq, ver = 1), {@code perTxn} rows per transaction.
     */
    public void insert(String table, long from, long to, int perTxn) throws SQLException {
        inTransactions(
                from,
                to,
                perTxn,
                (s, lo, hi) -> {
                    StringBuilder sql = new StringBuilder("INSERT INTO " + table + " VALUES ");
                    for (long i = lo; i <= hi; i++) {
                        sql.append(i == lo ? "" : ",")
                                .append('(')
                                .append(i)
                                .append(',')
                                .append(i)
                                .append(",1,'")
                                .append(payload)
                                .append("')");
                        expected.add(table + "|c|" + i + "|1");
                    }
                    s.executeUpdate(sql.toString());
                },
                1000);
    }

    /**
     * Bumps {@code ver} of rows {@code id = from..to} (ver 1 to 2), {@code perTxn} rows per
     * transaction.
     */
    public void bumpVersion(String table, long from, long to, int perTxn) throws SQLException {
        inTransactions(
                from,
                to,
                perTxn,
                (s, lo, hi) -> {
                    s.executeUpdate(
                            "UPDATE "
                                    + table
                                    + " SET ver = ver + 1 WHERE id BETWEEN "
                                    + lo
                                    + " AND "
                                    + hi
                                    + " ORDER BY id");
                    for (long i = lo; i <= hi; i++) {
                        expected.add(table + "|u|" + i + "|1>2|" + i + ">" + i);
                    }
                },
                Integer.MAX_VALUE);
    }

    /** Moves rows {@code id = from..to} to {@code id + 1000000} and bumps their version. */
    public void moveKeys(String table, long from, long to, int perTxn) throws SQLException {
        inTransactions(
                from,
                to,
                perTxn,
                (s, lo, hi) -> {
                    s.executeUpdate(
                            "UPDATE "
                                    + table
                                    + " SET id = id + 1000000, ver = ver + 1 WHERE id BETWEEN "
                                    + lo
                                    + " AND "
                                    + hi
                                    + " ORDER BY id");
                    for (long i = lo; i <= hi; i++) {
                        expected.add(table + "|u|" + i + "|1>2|" + i + ">" + (i + 1000000));
                    }
                },
                Integer.MAX_VALUE);
    }

    /** Deletes rows {@code id = from..to} (at version 1). */
    public void delete(String table, long from, long to, int perTxn) throws SQLException {
        inTransactions(
                from,
                to,
                perTxn,
                (s, lo, hi) -> {
                    s.executeUpdate(
                            "DELETE FROM "
                                    + table
                                    + " WHERE id BETWEEN "
                                    + lo
                                    + " AND "
                                    + hi
                                    + " ORDER BY id");
                    for (long i = lo; i <= hi; i++) {
                        expected.add(table + "|d|" + i + "|1");
                    }
                },
                Integer.MAX_VALUE);
    }

    @FunctionalInterface
    private interface Step {
        void run(Statement s, long lo, long hi) throws SQLException;
    }

    /**
     * Runs {@code step} over [from, to] in slices of at most {@code perStatement} rows per
     * statement.
     */
    private void inTransactions(long from, long to, int perTxn, Step step, int perStatement)
            throws SQLException {
        try (Connection c = db.openRootConnection();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            for (long txnLo = from; txnLo <= to; txnLo += perTxn) {
                long txnHi = Math.min(to, txnLo + perTxn - 1);
                for (long lo = txnLo; lo <= txnHi; lo += perStatement) {
                    long hi = Math.min(txnHi, lo + Math.min(perStatement, perTxn) - 1);
                    step.run(s, lo, hi);
                }
                c.commit();
            }
        }
    }
}
