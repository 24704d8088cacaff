package io.capstan.flink.mysql.demo;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A steady shop workload from a few writer threads: new orders, status changes, amount changes,
 * cancellations and deletes, now and then several in one transaction. The rate is bounded (row
 * changes per second over all writers) so the demo stays light on a laptop.
 */
final class ShopLoad implements AutoCloseable {

    private final DemoServer server;
    private final String orders;
    private final int writers;
    private final long nanosPerOp;
    private final AtomicLong maxId = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();

    /** Writers hold the read side per transaction; {@link #pause()} takes the write side. */
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock(true);

    private volatile boolean running = true;

    /** Changes to further tables of the shop, one in five transactions; none in the shop demo. */
    interface MoreTables {
        /** One autocommitted change; returns the rows it changed. */
        int change(Connection c, Random random) throws SQLException;
    }

    private final MoreTables moreTables;

    final AtomicLong inserts = new AtomicLong();
    final AtomicLong updates = new AtomicLong();
    final AtomicLong deletes = new AtomicLong();
    final AtomicLong transactions = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    private volatile String lastError;

    ShopLoad(
            DemoServer server,
            String database,
            int writers,
            int rowChangesPerSecond,
            long seededMaxId) {
        this(server, database, writers, rowChangesPerSecond, seededMaxId, null);
    }

    ShopLoad(
            DemoServer server,
            String database,
            int writers,
            int rowChangesPerSecond,
            long seededMaxId,
            MoreTables moreTables) {
        this.moreTables = moreTables;
        this.server = server;
        this.orders = database + "." + ShopSchema.ORDERS;
        this.writers = writers;
        this.nanosPerOp = TimeUnit.SECONDS.toNanos(1) * writers / rowChangesPerSecond;
        this.maxId.set(seededMaxId);
    }

    static BigDecimal randomAmount(Random random) {
        return BigDecimal.valueOf(500 + random.nextInt(49_500), 2); // 5.00 .. 499.99
    }

    void start() {
        for (int i = 0; i < writers; i++) {
            long seed = 1000L + i;
            Thread t = new Thread(() -> runWriter(new Random(seed)), "shop-writer-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /** Stops the writers and waits for their last transaction to finish. */
    @Override
    public void close() {
        running = false;
        for (Thread t : threads) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Stops new transactions until the returned handle is closed; returns once every running
     * transaction has committed or rolled back, so MySQL's tables then hold a settled state.
     */
    AutoCloseable pause() {
        gate.writeLock().lock();
        return gate.writeLock()::unlock;
    }

    long rowChanges() {
        return inserts.get() + updates.get() + deletes.get();
    }

    /** The exception class and SQL state of the last failed write; never values. */
    String lastError() {
        return lastError;
    }

    private void runWriter(Random random) {
        long next = System.nanoTime();
        Connection c = null;
        while (running) {
            try {
                if (c == null) {
                    c = server.openWriterConnection();
                }
                int changed;
                if (!gate.readLock().tryLock(200, TimeUnit.MILLISECONDS)) {
                    continue; // paused for a settle point; look at running again
                }
                try {
                    changed =
                            random.nextInt(10) == 0
                                    ? multiStatementTransaction(c, random)
                                    : oneChange(c, random);
                } finally {
                    gate.readLock().unlock();
                }
                transactions.incrementAndGet();
                next += nanosPerOp * Math.max(1, changed);
            } catch (InterruptedException e) {
                break;
            } catch (SQLException e) {
                errors.incrementAndGet();
                lastError = e.getClass().getSimpleName() + " SQLState " + e.getSQLState();
                closeQuietly(c);
                c = null;
                next = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            }
            long wait = next - System.nanoTime();
            if (wait > 0) {
                sleepNanos(wait);
            } else if (wait < -TimeUnit.SECONDS.toNanos(1)) {
                next = System.nanoTime(); // fell behind (slow server): do not burst to catch up
            }
        }
        closeQuietly(c);
    }

    /** One autocommitted statement; returns the rows it changed. */
    private int oneChange(Connection c, Random random) throws SQLException {
        if (moreTables != null && random.nextInt(5) == 0) {
            int n = moreTables.change(c, random);
            updates.addAndGet(n);
            return n;
        }
        int dice = random.nextInt(100);
        if (dice < 35) {
            return insert(c, random);
        } else if (dice < 70) {
            return advanceStatus(c, random);
        } else if (dice < 82) {
            return changeAmount(c, random);
        } else if (dice < 90) {
            return cancel(c, random);
        } else {
            return delete(c, random);
        }
    }

    /** A new order and a change to another one, committed together. */
    private int multiStatementTransaction(Connection c, Random random) throws SQLException {
        c.setAutoCommit(false);
        try {
            int n = insert(c, random) + advanceStatus(c, random) + changeAmount(c, random);
            c.commit();
            return n;
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private int insert(Connection c, Random random) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO "
                                + orders
                                + " (customer_id, status, amount) VALUES (?, 'NEW', ?)",
                        Statement.RETURN_GENERATED_KEYS)) {
            ps.setInt(1, 1 + random.nextInt(500));
            ps.setBigDecimal(2, randomAmount(random));
            int n = ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                if (keys.next()) {
                    maxId.accumulateAndGet(keys.getLong(1), Math::max);
                }
            }
            inserts.addAndGet(n);
            return n;
        }
    }

    private int advanceStatus(Connection c, Random random) throws SQLException {
        return update(
                c,
                random,
                "UPDATE "
                        + orders
                        + " SET status = CASE status"
                        + " WHEN 'NEW' THEN 'PAID' WHEN 'PAID' THEN 'SHIPPED' WHEN 'SHIPPED' THEN 'DELIVERED'"
                        + " ELSE status END WHERE id = ?",
                null);
    }

    private int changeAmount(Connection c, Random random) throws SQLException {
        BigDecimal delta =
                BigDecimal.valueOf(random.nextInt(2001) - 1000, 2)
                        .setScale(2, RoundingMode.UNNECESSARY);
        return update(
                c,
                random,
                "UPDATE " + orders + " SET amount = GREATEST(1.00, amount + ?) WHERE id = ?",
                delta);
    }

    private int cancel(Connection c, Random random) throws SQLException {
        return update(
                c,
                random,
                "UPDATE "
                        + orders
                        + " SET status = 'CANCELLED'"
                        + " WHERE id = ? AND status IN ('NEW', 'PAID')",
                null);
    }

    private int delete(Connection c, Random random) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + orders + " WHERE id = ?")) {
            ps.setLong(1, randomId(random));
            int n = ps.executeUpdate();
            deletes.addAndGet(n);
            return n;
        }
    }

    private int update(Connection c, Random random, String sql, BigDecimal firstParam)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            if (firstParam != null) {
                ps.setBigDecimal(i++, firstParam);
            }
            ps.setLong(i, randomId(random));
            int n = ps.executeUpdate();
            updates.addAndGet(n);
            return n;
        }
    }

    /** Recent orders change more often than old ones, as in a real shop. */
    private long randomId(Random random) {
        long max = Math.max(1, maxId.get());
        long span = random.nextBoolean() ? Math.min(max, 300) : max;
        return max - (long) (random.nextDouble() * span);
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // the connection is being discarded
            }
        }
    }

    private static void sleepNanos(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
