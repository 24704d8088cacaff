package io.capstan.flink.mysql.demo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;

/** The demo's shop: one {@code orders} table, created empty, then filled with seed rows. */
final class ShopSchema {

    /** Order states, in the order the load moves an order through them. */
    static final List<String> STATUSES =
            List.of("NEW", "PAID", "SHIPPED", "DELIVERED", "CANCELLED");

    static final String ORDERS = "orders";

    /** An empty table that marks a database as the demo's own, so a later run may replace it. */
    private static final String MARKER = "capstan_demo_marker";

    private ShopSchema() {}

    /**
     * Creates the database and an empty orders table. An existing database is replaced only when it
     * is on the embedded server or was made by an earlier run of the demo (it holds the marker
     * table); otherwise it is refused, so the demo never touches data it did not create.
     */
    static void create(Connection c, String database, boolean mayReplace) throws SQLException {
        try (Statement st = c.createStatement()) {
            if (databaseExists(c, database)) {
                if (!mayReplace && !tableExists(c, database, MARKER)) {
                    throw new IllegalStateException(
                            "database "
                                    + database
                                    + " already exists on your server"
                                    + " and was not made by the demo, which only writes to a database it creates:"
                                    + " pass -Ddemo.database=<a new name>");
                }
                st.execute("DROP DATABASE " + database);
            }
            st.execute("CREATE DATABASE " + database);
            st.execute("CREATE TABLE " + database + "." + MARKER + " (made_by VARCHAR(32))");
            st.execute(
                    "CREATE TABLE "
                            + database
                            + "."
                            + ORDERS
                            + " ("
                            + " id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
                            + " customer_id INT NOT NULL,"
                            + " status VARCHAR(16) NOT NULL,"
                            + " amount DECIMAL(10,2) NOT NULL,"
                            + " updated_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)"
                            + "   ON UPDATE CURRENT_TIMESTAMP(3))");
        }
    }

    /** Inserts {@code rows} orders in a few large transactions, statuses spread over all states. */
    static void seed(Connection c, String database, int rows, Random random) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        String sql =
                "INSERT INTO "
                        + database
                        + "."
                        + ORDERS
                        + " (customer_id, status, amount) VALUES (?, ?, ?)";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 1; i <= rows; i++) {
                ps.setInt(1, 1 + random.nextInt(500));
                ps.setString(2, STATUSES.get(random.nextInt(STATUSES.size())));
                ps.setBigDecimal(3, ShopLoad.randomAmount(random));
                ps.addBatch();
                if (i % 500 == 0 || i == rows) {
                    ps.executeBatch();
                    c.commit();
                }
            }
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private static boolean tableExists(Connection c, String database, String table)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, database);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static boolean databaseExists(Connection c, String database) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?")) {
            ps.setString(1, database);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }
}
