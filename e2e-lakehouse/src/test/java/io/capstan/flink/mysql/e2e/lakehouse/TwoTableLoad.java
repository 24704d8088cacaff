package io.capstan.flink.mysql.e2e.lakehouse;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One writer thread at a bounded rate over the two tables of {@link LakehouseClusterIT}: inserts,
 * updates and deletes of orders (now and then two in one transaction) and customer changes. It
 * stops by itself after ten minutes at the latest; a failed transaction is rolled back and the
 * writer goes on (MySQL then holds what committed, which is what the check compares).
 */
final class TwoTableLoad implements AutoCloseable {

    interface Connections {
        Connection open() throws SQLException;
    }

    private final Thread thread;
    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean running = true;

    TwoTableLoad(
            Connections connections,
            String orders,
            int orderRows,
            String customers,
            int customerRows,
            int transactionsPerSecond) {
        long nanosPer = TimeUnit.SECONDS.toNanos(1) / transactionsPerSecond;
        long stopAt = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        thread =
                new Thread(
                        () -> {
                            Random random = new Random(7);
                            long nextOrder = orderRows + 1;
                            long next = System.nanoTime();
                            while (running && System.nanoTime() < stopAt) {
                                try (Connection c = connections.open()) {
                                    while (running && System.nanoTime() < stopAt) {
                                        c.setAutoCommit(random.nextInt(5) != 0);
                                        int statements = c.getAutoCommit() ? 1 : 2;
                                        for (int i = 0; i < statements; i++) {
                                            int dice = random.nextInt(10);
                                            if (dice < 3) {
                                                run(
                                                        c,
                                                        "INSERT INTO "
                                                                + orders
                                                                + " VALUES (?, 0, 1.00)",
                                                        nextOrder++);
                                            } else if (dice < 7) {
                                                run(
                                                        c,
                                                        "UPDATE "
                                                                + orders
                                                                + " SET ver = ver + 1, amount = amount + 0.01"
                                                                + " WHERE id = ?",
                                                        1 + random.nextInt((int) nextOrder - 1));
                                            } else if (dice < 8) {
                                                run(
                                                        c,
                                                        "DELETE FROM " + orders + " WHERE id = ?",
                                                        1 + random.nextInt((int) nextOrder - 1));
                                            } else {
                                                run(
                                                        c,
                                                        "UPDATE "
                                                                + customers
                                                                + " SET tier = tier + 1,"
                                                                + " name = CONCAT(name, 'x')"
                                                                + " WHERE id = ?",
                                                        1 + random.nextInt(customerRows));
                                            }
                                        }
                                        if (!c.getAutoCommit()) {
                                            c.commit();
                                        }
                                        transactions.incrementAndGet();
                                        next += nanosPer;
                                        long wait = next - System.nanoTime();
                                        if (wait > 0) {
                                            TimeUnit.NANOSECONDS.sleep(wait);
                                        } else {
                                            next = System.nanoTime();
                                        }
                                    }
                                } catch (SQLException e) {
                                    failures.incrementAndGet();
                                } catch (InterruptedException e) {
                                    return;
                                }
                            }
                        },
                        "lakehouse-load");
        thread.setDaemon(true);
        thread.start();
    }

    private static void run(Connection c, String sql, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, id);
            ps.executeUpdate();
        }
    }

    long transactions() {
        return transactions.get();
    }

    long failures() {
        return failures.get();
    }

    /** Stops the writer and waits for its last transaction. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(TimeUnit.SECONDS.toMillis(30));
    }
}
