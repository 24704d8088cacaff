package io.capstan.flink.mysql.e2e.connector;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Several concurrent writers against one table {@code (id BIGINT PRIMARY KEY, uid BIGINT UNIQUE,
 * ver BIGINT, balance BIGINT)}, each running multi-row transactions of multi-row inserts (ver 1),
 * in-place updates of several rows and key moves (both {@code ver = ver + 1}, computed by the
 * server, so a row's versions are exact whatever the interleaving) and deletes. Deadlocks and lock
 * wait timeouts roll back and retry the same transaction. Bounded by a transaction count and by
 * {@link #close()}; writers pause briefly between transactions so the load stays realistic on a
 * small shared machine. {@link #startReconnecting} writers also outlive a server restart or a lost
 * connection: they reconnect and go on with a new transaction (whether the interrupted one
 * committed is then up to the server, whose table is the truth the checks compare with).
 */
public final class VersionedLoad implements AutoCloseable {
    /** Opens a connection for a writer (autocommit is switched off by the writer). */
    @FunctionalInterface
    public interface ConnectionFactory {
        Connection open() throws SQLException;
    }

    private final String table;
    private final ConnectionFactory connections;
    private final long maxTransactions;
    private final long pauseMillis;
    private final AtomicLong nextId;
    private final long firstId;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong reconnects = new AtomicLong();
    private boolean reconnecting;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Thread> writers = new ArrayList<>();

    private VersionedLoad(
            String table,
            ConnectionFactory connections,
            long firstId,
            long maxTransactions,
            long pauseMillis) {
        this.table = table;
        this.connections = connections;
        this.firstId = firstId;
        this.nextId = new AtomicLong(firstId);
        this.maxTransactions = maxTransactions;
        this.pauseMillis = pauseMillis;
    }

    /**
     * Starts {@code writers} threads. New rows get ids (and uids) from {@code firstId} upwards, so
     * they never collide with rows already in the table below it.
     */
    public static VersionedLoad start(
            String table,
            ConnectionFactory connections,
            int writers,
            long firstId,
            long maxTransactions,
            long pauseMillis) {
        VersionedLoad load =
                new VersionedLoad(table, connections, firstId, maxTransactions, pauseMillis);
        for (int i = 0; i < writers; i++) {
            Thread writer = new Thread(load::run, "versioned-load-" + i);
            writer.setDaemon(true);
            load.writers.add(writer);
            writer.start();
        }
        return load;
    }

    /**
     * {@link #start}, but a writer whose connection is lost (server restart, {@code KILL}) opens a
     * new one and continues, until {@link #close()}.
     */
    public static VersionedLoad startReconnecting(
            String table,
            ConnectionFactory connections,
            int writers,
            long firstId,
            long maxTransactions,
            long pauseMillis) {
        VersionedLoad load =
                new VersionedLoad(table, connections, firstId, maxTransactions, pauseMillis);
        load.reconnecting = true;
        for (int i = 0; i < writers; i++) {
            Thread writer = new Thread(load::run, "versioned-load-" + i);
            writer.setDaemon(true);
            load.writers.add(writer);
            writer.start();
        }
        return load;
    }

    /** How often a reconnecting writer had to open a new connection. */
    public long reconnects() {
        return reconnects.get();
    }

    public long committedTransactions() {
        return committed.get();
    }

    public long retriedTransactions() {
        return retries.get();
    }

    /** Stops the writers, waits for them, and rethrows a writer's failure. */
    @Override
    public void close() {
        stop.set(true);
        for (Thread writer : writers) {
            try {
                writer.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("A load writer failed", failure.get());
        }
    }

    private void run() {
        try {
            while (!stop.get() && committed.get() < maxTransactions) {
                try (Connection c = connections.open()) {
                    c.setAutoCommit(false);
                    writeUntilStopped(c);
                } catch (SQLException e) {
                    if (!reconnecting) {
                        throw e;
                    }
                    reconnects.incrementAndGet();
                    Thread.sleep(500); // the server may still be restarting
                }
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }

    private void writeUntilStopped(Connection c) throws SQLException, InterruptedException {
        while (!stop.get() && committed.get() < maxTransactions) {
            List<Statement> transaction = nextTransaction();
            try {
                while (!runOnce(c, transaction)) {
                    retries.incrementAndGet();
                }
            } catch (SQLException e) {
                if (reconnecting && !c.isValid(2)) {
                    throw e; // lost connection: run() opens a new one
                }
                throw new IllegalStateException("A load transaction failed", e);
            }
            committed.incrementAndGet();
            if (pauseMillis > 0) {
                Thread.sleep(pauseMillis);
            }
        }
    }

    /** One statement of a transaction and its parameters. */
    private record Statement(String sql, long[] params) {}

    private List<Statement> nextTransaction() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<Statement> statements = new ArrayList<>();
        int count = 1 + random.nextInt(4);
        for (int i = 0; i < count; i++) {
            int kind = random.nextInt(100);
            if (kind < 35) {
                int rows = 1 + random.nextInt(3);
                StringBuilder sql =
                        new StringBuilder(
                                "INSERT INTO " + table + " (id, uid, ver, balance) VALUES ");
                long[] params = new long[rows * 3];
                for (int r = 0; r < rows; r++) {
                    long id = nextId.getAndIncrement();
                    sql.append(r == 0 ? "" : ", ").append("(?, ?, 1, ?)");
                    params[r * 3] = id;
                    params[r * 3 + 1] = id;
                    params[r * 3 + 2] = random.nextLong(1_000);
                }
                statements.add(new Statement(sql.toString(), params));
            } else if (kind < 75) {
                statements.add(
                        new Statement(
                                "UPDATE "
                                        + table
                                        + " SET ver = ver + 1, balance = balance + ? WHERE id IN (?, ?, ?)",
                                new long[] {
                                    1 + random.nextLong(100),
                                    someId(random),
                                    someId(random),
                                    someId(random)
                                }));
            } else if (kind < 88) {
                statements.add(
                        new Statement(
                                "UPDATE " + table + " SET id = ?, ver = ver + 1 WHERE id = ?",
                                new long[] {nextId.getAndIncrement(), someId(random)}));
            } else {
                statements.add(
                        new Statement(
                                "DELETE FROM " + table + " WHERE id = ?",
                                new long[] {someId(random)}));
            }
        }
        return statements;
    }

    /**
     * A key that probably exists: half of the picks among recent keys, half among all (incl.
     * preloaded rows).
     */
    private long someId(ThreadLocalRandom random) {
        long top = nextId.get();
        long low = random.nextBoolean() ? 1 : Math.max(1, Math.max(firstId, top - 2_000));
        return low >= top ? low : random.nextLong(low, top);
    }

    /** Runs the transaction; false if it was rolled back for a deadlock or lock wait timeout. */
    private boolean runOnce(Connection c, List<Statement> transaction) throws SQLException {
        try {
            for (Statement statement : transaction) {
                try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
                    for (int i = 0; i < statement.params().length; i++) {
                        ps.setLong(i + 1, statement.params()[i]);
                    }
                    ps.executeUpdate();
                }
            }
            c.commit();
            return true;
        } catch (SQLException e) {
            try {
                c.rollback();
            } catch (SQLException rollbackFailed) {
                e.addSuppressed(rollbackFailed); // the connection is gone: the caller decides
                throw e;
            }
            if (e.getErrorCode() == 1213 || e.getErrorCode() == 1205) {
                return false;
            }
            throw e;
        }
    }
}
