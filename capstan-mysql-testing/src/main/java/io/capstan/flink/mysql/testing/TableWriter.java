package io.capstan.flink.mysql.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One table's writer: single-row autocommit changes (insert 50 %, update 30 %, delete 20 %), about
 * one per 10 ms, of columns {@code id, v, name}; while {@link #recordForGhost} is set it also keeps
 * its committed changes in order for gh-ost's binlog apply ({@link OnlineSchemaChangeTools}).
 */
final class TableWriter implements Runnable {

    /** A committed change: 'I', 'U' or 'D' of key {@code id}. */
    record Change(char kind, long id, int v, String name) {}

    private final MySqlTestDatabase db;
    private final int initialRows;
    final String table;
    final Thread thread;
    final ConcurrentLinkedQueue<Change> backlog = new ConcurrentLinkedQueue<>();
    final List<Long> keys = new ArrayList<>();
    final Random random;
    volatile boolean stop;
    volatile boolean recordForGhost;
    volatile boolean paused; // asked to write nothing
    volatile boolean idle; // writing nothing, having seen paused
    volatile Throwable failure;
    volatile long connectionId;
    long nextKey;
    int written;

    TableWriter(MySqlTestDatabase db, String table, long firstKey, int initialRows) {
        this.db = db;
        this.initialRows = initialRows;
        this.table = table;
        this.nextKey = firstKey;
        this.random = new Random(firstKey);
        this.thread = new Thread(this, "writer-" + table);
    }

    void fill() throws SQLException {
        try (Connection c = db.openRootConnection()) {
            for (int i = 0; i < initialRows; i++) {
                insert(c);
            }
        }
    }

    /** Stops writing after the statement in flight, until {@link #resume}. */
    void pause() throws InterruptedException {
        paused = true;
        while (!idle && !stop && thread.isAlive()) {
            Thread.sleep(5);
        }
    }

    void resume() {
        paused = false;
    }

    @Override
    public void run() {
        try (Connection c = db.openRootConnection()) {
            connectionId = OnlineSchemaChangeTools.connectionId(c);
            while (!stop) {
                if (paused) {
                    idle = true;
                    Thread.sleep(5);
                    continue;
                }
                idle = false;
                int op = random.nextInt(10);
                if (op < 5 || keys.size() < 5) {
                    insert(c);
                } else if (op < 8) {
                    update(c);
                } else {
                    delete(c);
                }
                Thread.sleep(10);
            }
        } catch (Throwable e) {
            failure = e;
        }
    }

    private void insert(Connection c) throws SQLException {
        long id = nextKey++;
        int v = random.nextInt(1000);
        String name = "n" + random.nextInt(100_000);
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO " + table + " (id, v, name) VALUES (?, ?, ?)")) {
            ps.setLong(1, id);
            ps.setInt(2, v);
            ps.setString(3, name);
            ps.executeUpdate();
        }
        keys.add(id);
        done(new Change('I', id, v, name));
    }

    private void update(Connection c) throws SQLException {
        long id = keys.get(random.nextInt(keys.size()));
        int v = random.nextInt(1000);
        String name = "u" + random.nextInt(100_000);
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE " + table + " SET v = ?, name = ? WHERE id = ?")) {
            ps.setInt(1, v);
            ps.setString(2, name);
            ps.setLong(3, id);
            ps.executeUpdate();
        }
        done(new Change('U', id, v, name));
    }

    private void delete(Connection c) throws SQLException {
        long id = keys.remove(random.nextInt(keys.size()));
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE id = ?")) {
            ps.setLong(1, id);
            ps.executeUpdate();
        }
        done(new Change('D', id, 0, null));
    }

    private void done(Change change) {
        written++;
        if (recordForGhost) {
            backlog.add(change);
        }
    }
}
