package io.capstan.flink.mysql.demo;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The shop's tables that the lakehouse example copies into Paimon: the demo's {@code orders}, and
 * {@code customers} and {@code products} beside it, each with a checksum that is the same SQL text
 * in MySQL and in Flink SQL (so both sides compute it the same way).
 */
final class LakehouseTables {

    /**
     * One table: its name and its checksum (its Paimon table is created from the columns {@code
     * TableRoutes} discovers).
     */
    record ShopTable(String name, String checksum) {}

    private static final String STATUS_CODE =
            "(CASE status WHEN 'NEW' THEN 1 WHEN 'PAID' THEN 2 WHEN 'SHIPPED' THEN 3"
                    + " WHEN 'DELIVERED' THEN 4 WHEN 'CANCELLED' THEN 5 ELSE 0 END)";

    /**
     * Per row: its key plus its other columns weighted by a factor that depends on the key, summed
     * over the table. Any lost, duplicated or wrong row changes it (up to coincidences a demo can
     * live with); the factor {@code MOD(id, 97) + 1.0} is a decimal in both dialects, so no sum
     * overflows.
     */
    private static String checksum(String columns) {
        return "SUM(id + (" + columns + ") * (MOD(id, 97) + 1.0))";
    }

    static final ShopTable ORDERS =
            new ShopTable(
                    ShopSchema.ORDERS,
                    checksum("customer_id * 3 + amount * 500 + " + STATUS_CODE + " * 7"));

    static final ShopTable CUSTOMERS =
            new ShopTable(
                    "customers",
                    checksum("CHAR_LENGTH(name) * 3 + CHAR_LENGTH(city) * 5 + tier * 7"));

    static final ShopTable PRODUCTS =
            new ShopTable("products", checksum("CHAR_LENGTH(name) * 3 + price * 500 + stock * 7"));

    static final List<ShopTable> ALL = List.of(ORDERS, CUSTOMERS, PRODUCTS);

    static final int SEED_CUSTOMERS = 500;
    static final int SEED_PRODUCTS = 200;

    private static final List<String> CITIES =
            List.of("Lisbon", "Oslo", "Kyoto", "Lima", "Accra", "Perth", "Quebec");

    private LakehouseTables() {}

    /**
     * Creates and fills {@code customers} and {@code products} in a database that {@link
     * ShopSchema#create} made.
     */
    static void createAndSeed(Connection c, String database, Random random) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(
                    "CREATE TABLE "
                            + database
                            + ".customers (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
                            + " name VARCHAR(64) NOT NULL, city VARCHAR(32) NOT NULL,"
                            + " tier INT NOT NULL)");
            st.execute(
                    "CREATE TABLE "
                            + database
                            + ".products (id INT NOT NULL PRIMARY KEY, name VARCHAR(64) NOT NULL,"
                            + " price DECIMAL(10,2) NOT NULL, stock INT NOT NULL)");
        }
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO "
                                + database
                                + ".customers (name, city, tier) VALUES (?, ?, ?)")) {
            for (int i = 1; i <= SEED_CUSTOMERS; i++) {
                ps.setString(1, "customer-" + i);
                ps.setString(2, CITIES.get(random.nextInt(CITIES.size())));
                ps.setInt(3, random.nextInt(3));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO "
                                + database
                                + ".products (id, name, price, stock) VALUES (?, ?, ?, ?)")) {
            for (int i = 1; i <= SEED_PRODUCTS; i++) {
                ps.setInt(1, i);
                ps.setString(2, "product-" + i);
                ps.setBigDecimal(3, ShopLoad.randomAmount(random));
                ps.setInt(4, random.nextInt(1000));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * The load's changes to {@code customers} and {@code products}: stock and price changes, new
     * customers, customers moving up a tier.
     */
    static ShopLoad.MoreTables changes(String database) {
        AtomicLong maxCustomer = new AtomicLong(SEED_CUSTOMERS);
        return (c, random) -> {
            int dice = random.nextInt(100);
            if (dice < 40) {
                return update(
                        c,
                        "UPDATE "
                                + database
                                + ".products SET stock = GREATEST(0, stock + ?) WHERE id = ?",
                        random.nextInt(21) - 10,
                        1 + random.nextInt(SEED_PRODUCTS));
            } else if (dice < 60) {
                try (PreparedStatement ps =
                        c.prepareStatement(
                                "UPDATE " + database + ".products SET price = ? WHERE id = ?")) {
                    ps.setBigDecimal(1, ShopLoad.randomAmount(random));
                    ps.setInt(2, 1 + random.nextInt(SEED_PRODUCTS));
                    return ps.executeUpdate();
                }
            } else if (dice < 85) {
                long id = maxCustomer.incrementAndGet();
                try (PreparedStatement ps =
                        c.prepareStatement(
                                "INSERT INTO "
                                        + database
                                        + ".customers (name, city, tier) VALUES (?, ?, 0)")) {
                    ps.setString(1, "customer-" + id);
                    ps.setString(2, CITIES.get(random.nextInt(CITIES.size())));
                    return ps.executeUpdate();
                }
            } else {
                return update(
                        c,
                        "UPDATE "
                                + database
                                + ".customers SET tier = LEAST(3, tier + ?) WHERE id = ?",
                        1,
                        1
                                + random.nextInt(
                                        (int) Math.min(Integer.MAX_VALUE - 1, maxCustomer.get())));
            }
        };
    }

    private static int update(Connection c, String sql, int first, int id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, first);
            ps.setInt(2, id);
            return ps.executeUpdate();
        }
    }

    /** A value that a table's checksum sums to when the table is empty (SQL's SUM is NULL then). */
    static BigDecimal orZero(BigDecimal sum) {
        return sum == null ? BigDecimal.ZERO : sum;
    }
}
