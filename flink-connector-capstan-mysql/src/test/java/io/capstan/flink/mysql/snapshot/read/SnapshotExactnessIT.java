package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.binlog.ServerGtidState;
import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.convert.BinlogEventDeserializers;
import io.capstan.flink.mysql.convert.RowConverter;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.snapshot.gate.FinishedChunk;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcBoundaryQueries;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.snapshot.plan.TableChunkPlanner;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.XidEventData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.capstan.flink.mysql.snapshot.read.SnapshotTestSupport.gtidExecuted;
import static io.capstan.flink.mysql.snapshot.read.SnapshotTestSupport.resolve;
import static io.capstan.flink.mysql.snapshot.read.SnapshotTestSupport.spec;
import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * THE exactness test. Writer threads insert, update (also the primary key, also across chunks) and
 * delete rows of a table while its chunks are read one after another, each at its G. Afterwards the
 * binlog is read from the intersection of the G's and every row change whose transaction is NOT in
 * the G of the chunk holding its key is applied to the chunks' rows, strictly (an insert of a
 * present key, or a delete/update whose before image is not the current row, is a violation). The
 * result must be exactly the table's final contents, with no violation.
 *
 * <p>The same run with G captured before LOCK TABLES, or after UNLOCK TABLES, must fail the check:
 * this is what proves the check can see the difference.
 */
class SnapshotExactnessIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static final int INITIAL_ROWS = 3000;
    private static final int KEY_SPACE = 4500;

    /**
     * When G is read. Only {@link #UNDER_LOCK} (the reader's own G) is correct; the others read it
     * at a wrong moment to prove that this test notices a misplaced capture.
     */
    enum CapturePoint {
        UNDER_LOCK,
        /** Wrong: transactions committing before the lock are in the view but not in G. */
        BEFORE_LOCK,
        /**
         * Wrong: transactions committing after the unlock are in G but not in the view. The race
         * window is one round trip, so it is widened by a 20 ms pause (what a slow network or a
         * descheduled thread would do) to make the loss observable.
         */
        AFTER_UNLOCK
    }

    /**
     * Reads {@code @@global.gtid_executed} (a global: any session reads the same) at the capture
     * point, through the chunk reader's brief-lock listener, and puts it in place of the reader's
     * G.
     */
    private static final class PositionCapture implements BriefLockListener, AutoCloseable {
        private final CapturePoint point;
        private final Connection session;
        private GtidSet captured;

        PositionCapture(CapturePoint point, MySqlConnectionConfig config) throws SQLException {
            this.point = point;
            this.session = JdbcConnections.open(config);
        }

        @Override
        public void beforeLock(TableId table) {
            if (point == CapturePoint.BEFORE_LOCK) {
                captured = readG();
            }
        }

        @Override
        public void afterUnlock(TableId table) {
            if (point == CapturePoint.AFTER_UNLOCK) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
                captured = readG();
            }
        }

        /** The chunk with G as read at the capture point. */
        ChunkResult of(ChunkResult read) {
            if (point == CapturePoint.UNDER_LOCK) {
                return read;
            }
            GtidSet g = captured;
            captured = null;
            return new ChunkResult(
                    read.chunk(), Objects.requireNonNull(g, "no G captured"), read.rows());
        }

        private GtidSet readG() {
            try {
                return ServerGtidState.executed(session);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() {
            JdbcConnections.closeQuietly(session);
        }
    }

    /** What applying the gated binlog to the snapshot gave. */
    static final class Outcome {
        int chunks;
        int distinctG;
        int suppressed;
        int forwarded;
        int violations;
        int missingOrWrongRows;
        long writerTransactions;

        boolean exact() {
            return violations == 0 && missingOrWrongRows == 0;
        }

        @Override
        public String toString() {
            return "Outcome{chunks="
                    + chunks
                    + ", distinctG="
                    + distinctG
                    + ", suppressed="
                    + suppressed
                    + ", forwarded="
                    + forwarded
                    + ", violations="
                    + violations
                    + ", missingOrWrongRows="
                    + missingOrWrongRows
                    + ", writerTransactions="
                    + writerTransactions
                    + "}";
        }
    }

    @Test
    void gatedBinlogOnTopOfTheChunksIsExactlyTheFinalTable() throws Exception {
        Outcome o = run("exact_under_lock", CapturePoint.UNDER_LOCK, 100);
        System.out.println("UNDER_LOCK: " + o);
        // the run was meaningful: writes landed between chunks and on both sides of the gate
        assertThat(o.distinctG).isGreaterThan(5);
        assertThat(o.suppressed).isPositive();
        assertThat(o.forwarded).isPositive();
        assertThat(o.violations).as(o.toString()).isZero();
        assertThat(o.missingOrWrongRows).as(o.toString()).isZero();
    }

    @Test
    void compositeKeysWithMovesAcrossChunksAreExactToo() throws Exception {
        Outcome o = run("exact_composite", CapturePoint.UNDER_LOCK, 100, true);
        System.out.println("UNDER_LOCK composite: " + o);
        assertThat(o.distinctG).isGreaterThan(5);
        assertThat(o.suppressed).isPositive();
        assertThat(o.forwarded).isPositive();
        assertThat(o.violations).as(o.toString()).isZero();
        assertThat(o.missingOrWrongRows).as(o.toString()).isZero();
    }

    @Test
    void capturingGBeforeTheLockIsCaught() throws Exception {
        Outcome o = run("exact_before_lock", CapturePoint.BEFORE_LOCK, 50);
        System.out.println("BEFORE_LOCK: " + o);
        assertThat(o.exact()).as(o.toString()).isFalse();
    }

    @Test
    void capturingGAfterTheUnlockIsCaught() throws Exception {
        Outcome o = run("exact_after_unlock", CapturePoint.AFTER_UNLOCK, 50);
        System.out.println("AFTER_UNLOCK: " + o);
        assertThat(o.exact()).as(o.toString()).isFalse();
    }

    private Outcome run(String name, CapturePoint capture, int chunkSize) throws Exception {
        return run(name, capture, chunkSize, false);
    }

    /**
     * @param composite key {@code (a INT, b BIGINT)} instead of {@code id BIGINT}; writers address
     *     rows by {@code b} and moves change both key columns
     */
    private Outcome run(String name, CapturePoint capture, int chunkSize, boolean composite)
            throws Exception {
        MySqlConnectionConfig config = connectorConfig(DB);
        TableId table = TableId.of(DB.name(), name);
        DB.execute(
                composite
                        ? "CREATE TABLE "
                                + name
                                + " (a INT NOT NULL, b BIGINT NOT NULL, ver INT NOT NULL,"
                                + " val BIGINT NOT NULL, PRIMARY KEY (a, b), KEY by_b (b))"
                        : "CREATE TABLE "
                                + name
                                + " (id BIGINT PRIMARY KEY, ver INT NOT NULL, val BIGINT NOT NULL)");
        StringBuilder sql = new StringBuilder("INSERT INTO " + name + " VALUES ");
        for (int i = 1; i <= INITIAL_ROWS; i++) {
            sql.append(i == 1 ? "" : ", ").append('(');
            if (composite) {
                sql.append(i % 7).append(", ");
            }
            sql.append(i * 3 / 2).append(", 0, ").append(i).append(')');
        }
        DB.execute(sql.toString(), "ANALYZE TABLE " + name);
        ChunkKey key = resolve(config, table, Optional.empty());
        TableReadSpec spec = spec(config, key);

        Outcome o = new Outcome();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger committed = new AtomicInteger();
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            long seed = w * 7919L + name.hashCode();
            Thread t =
                    new Thread(
                            () -> write(name, composite, seed, stop, committed, writerFailure),
                            "writer-" + w);
            t.start();
            writers.add(t);
        }
        List<ChunkResult> results = new ArrayList<>();
        try {
            Thread.sleep(200);
            try (PositionCapture position = new PositionCapture(capture, config);
                    ChunkReader reader =
                            new ChunkReader(config, SnapshotReadOptions.defaults(), position);
                    Connection planning = JdbcConnections.open(config)) {
                TableChunkPlanner planner =
                        new TableChunkPlanner(key, chunkSize, new JdbcBoundaryQueries(planning));
                for (Optional<SnapshotChunk> c = planner.next();
                        c.isPresent();
                        c = planner.next()) {
                    results.add(position.of(reader.read(c.get(), spec)));
                    Thread.sleep(5); // let writers interleave between chunks
                }
            }
            Thread.sleep(200);
        } finally {
            stop.set(true);
            for (Thread t : writers) {
                t.join();
            }
        }
        assertThat(writerFailure.get()).isNull();
        o.writerTransactions = committed.get();

        GtidSet end;
        Map<List<Long>, long[]> finalRows;
        try (Connection root = DB.openRootConnection()) {
            end = GtidSet.parse(gtidExecuted(root));
            finalRows = readTable(root, name, composite);
        }

        List<FinishedChunk> finished = new ArrayList<>();
        int keyArity = composite ? 2 : 1;
        Map<List<Long>, long[]> model = new HashMap<>();
        Set<GtidSet> distinct = new HashSet<>();
        for (ChunkResult r : results) {
            finished.add(new FinishedChunk(r.chunk().range(), r.gtidSet()));
            distinct.add(r.gtidSet());
            for (RowData row : r.rows()) {
                long[] v = normalize((GenericRowData) row);
                assertThat(model.put(key(v, keyArity), v)).as("a key read by two chunks").isNull();
            }
        }
        o.chunks = results.size();
        o.distinctG = distinct.size();
        CursorGate gate = CursorGate.of(Map.of(key, finished));
        GtidSet start = gate.startPosition().orElseThrow();

        for (Transaction txn : readBinlog(config, start, end, name)) {
            for (Change c : txn.changes) {
                applyGated(gate, table, txn.gtid, c, model, keyArity, o);
            }
        }
        for (Map.Entry<List<Long>, long[]> e : finalRows.entrySet()) {
            if (!Arrays.equals(model.get(e.getKey()), e.getValue())) {
                o.missingOrWrongRows++;
            }
        }
        for (List<Long> k : model.keySet()) {
            if (!finalRows.containsKey(k)) {
                o.missingOrWrongRows++;
            }
        }
        return o;
    }

    /** Applies one change, gated per image (the rules documented on CursorGate), strictly. */
    private static void applyGated(
            CursorGate gate,
            TableId table,
            Gtid g,
            Change c,
            Map<List<Long>, long[]> model,
            int keyArity,
            Outcome o) {
        // the gate extracts the key from the converted binlog image, as the binlog reader will
        boolean before = c.beforeImage != null && gate.suppress(table, c.beforeImage, g);
        boolean after = c.afterImage != null && gate.suppress(table, c.afterImage, g);
        if (c.before != null) {
            if (before) {
                o.suppressed++;
            } else {
                o.forwarded++;
                if (!Arrays.equals(model.remove(key(c.before, keyArity)), c.before)) {
                    o.violations++; // deleting or updating a row the snapshot does not hold as is
                }
            }
        }
        if (c.after != null) {
            if (after) {
                o.suppressed++;
            } else {
                o.forwarded++;
                if (model.put(key(c.after, keyArity), c.after) != null) {
                    o.violations++; // inserting a key that is already there: a duplicate
                }
            }
        }
    }

    private static List<Long> key(long[] row, int arity) {
        return arity == 1 ? List.of(row[0]) : List.of(row[0], row[1]);
    }

    private static void write(
            String table,
            boolean composite,
            long seed,
            AtomicBoolean stop,
            AtomicInteger committed,
            AtomicReference<Throwable> failure) {
        Random r = new Random(seed);
        try (Connection c = DB.openRootConnection()) {
            try (Statement st = c.createStatement()) {
                st.execute("SET SESSION innodb_lock_wait_timeout = 1"); // writers never wait long
            }
            c.setAutoCommit(false);
            String row = composite ? "b" : "id";
            PreparedStatement update =
                    c.prepareStatement(
                            "UPDATE "
                                    + table
                                    + " SET ver = ver + 1, val = ? WHERE "
                                    + row
                                    + " = ?");
            PreparedStatement move =
                    c.prepareStatement(
                            composite
                                    ? "UPDATE "
                                            + table
                                            + " SET b = ?, a = ?, ver = ver + 1 WHERE b = ?"
                                    : "UPDATE "
                                            + table
                                            + " SET id = ?, ver = ver + 1 WHERE id = ?");
            PreparedStatement insert =
                    c.prepareStatement(
                            composite
                                    ? "INSERT IGNORE INTO " + table + " VALUES (?, ?, 0, ?)"
                                    : "INSERT IGNORE INTO " + table + " VALUES (?, 0, ?)");
            PreparedStatement delete =
                    c.prepareStatement("DELETE FROM " + table + " WHERE " + row + " = ?");
            while (!stop.get()) {
                int statements = 1 + (r.nextInt(4) == 0 ? r.nextInt(3) : 0);
                try {
                    for (int s = 0; s < statements; s++) {
                        int op = r.nextInt(100);
                        long id = 1 + r.nextInt(KEY_SPACE);
                        if (op < 45) {
                            update.setLong(1, r.nextLong());
                            update.setLong(2, id);
                            update.executeUpdate();
                        } else if (op < 65) {
                            int p = 1;
                            if (composite) {
                                insert.setLong(p++, id % 7);
                            }
                            insert.setLong(p++, id);
                            insert.setLong(p, r.nextLong());
                            insert.executeUpdate();
                        } else if (op < 80) {
                            delete.setLong(1, id);
                            delete.executeUpdate();
                        } else {
                            int p = 1;
                            move.setLong(p++, 1 + r.nextInt(KEY_SPACE)); // often into another chunk
                            if (composite) {
                                move.setLong(p++, r.nextInt(7));
                            }
                            move.setLong(p, id);
                            move.executeUpdate();
                        }
                    }
                    c.commit();
                    committed.incrementAndGet();
                } catch (SQLException e) {
                    c.rollback(); // duplicate key on a move, deadlock: just go on
                }
            }
        } catch (Throwable t) {
            failure.set(t);
        }
    }

    private static Map<List<Long>, long[]> readTable(Connection c, String table, boolean composite)
            throws SQLException {
        Map<List<Long>, long[]> rows = new HashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM " + table)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                long[] v = new long[n];
                for (int i = 0; i < n; i++) {
                    v[i] = rs.getLong(i + 1);
                }
                rows.put(key(v, composite ? 2 : 1), v);
            }
        }
        return rows;
    }

    private static long[] normalize(GenericRowData row) {
        long[] v = new long[row.getArity()];
        for (int i = 0; i < v.length; i++) {
            v[i] = ((Number) row.getField(i)).longValue();
        }
        return v;
    }

    static final class Change {
        final RowData beforeImage;
        final RowData afterImage;
        final long[] before;
        final long[] after;

        Change(GenericRowData before, GenericRowData after) {
            this.beforeImage = before;
            this.afterImage = after;
            this.before = before == null ? null : normalize(before);
            this.after = after == null ? null : normalize(after);
        }
    }

    static final class Transaction {
        final Gtid gtid;
        final List<Change> changes = new ArrayList<>();

        Transaction(Gtid gtid) {
            this.gtid = gtid;
        }
    }

    /** The transactions after {@code start} up to {@code end}, with this table's row changes. */
    private static List<Transaction> readBinlog(
            MySqlConnectionConfig config, GtidSet start, GtidSet end, String table)
            throws Exception {
        RowConverter converter;
        try (Connection c = JdbcConnections.open(config)) {
            converter = RowConverter.of(JdbcSchemaReader.read(c, TableId.of(DB.name(), table)));
        }
        List<Transaction> out = new ArrayList<>();
        if (start.containsAll(end)) {
            return out;
        }
        BinaryLogClient client =
                new BinaryLogClient(
                        config.hostname(), config.port(), config.username(), config.password());
        client.setServerId(100_000 + new Random().nextInt(1_000_000));
        client.setGtidSet(start.toString());
        client.setKeepAlive(false);
        client.setEventDeserializer(BinlogEventDeserializers.create());
        CountDownLatch done = new CountDownLatch(1);
        Map<Long, String> tableNames = new HashMap<>();
        AtomicReference<Transaction> current = new AtomicReference<>();
        AtomicReference<GtidSet> processed = new AtomicReference<>(start);
        client.registerEventListener(
                event -> {
                    EventData d = event.getData();
                    if (d instanceof GtidEventData) {
                        Transaction t = new Transaction(Gtid.parse(((GtidEventData) d).getGtid()));
                        current.set(t);
                        out.add(t);
                    } else if (d instanceof TableMapEventData) {
                        TableMapEventData m = (TableMapEventData) d;
                        tableNames.put(m.getTableId(), m.getDatabase() + "." + m.getTable());
                    } else if (d instanceof WriteRowsEventData) {
                        WriteRowsEventData w = (WriteRowsEventData) d;
                        if (ours(tableNames.get(w.getTableId()), table)) {
                            w.getRows()
                                    .forEach(
                                            row ->
                                                    current.get()
                                                            .changes
                                                            .add(
                                                                    new Change(
                                                                            null,
                                                                            converter.fromBinlog(
                                                                                    row))));
                        }
                    } else if (d instanceof UpdateRowsEventData) {
                        UpdateRowsEventData u = (UpdateRowsEventData) d;
                        if (ours(tableNames.get(u.getTableId()), table)) {
                            u.getRows()
                                    .forEach(
                                            e ->
                                                    current.get()
                                                            .changes
                                                            .add(
                                                                    new Change(
                                                                            converter.fromBinlog(
                                                                                    e.getKey()),
                                                                            converter.fromBinlog(
                                                                                    e
                                                                                            .getValue()))));
                        }
                    } else if (d instanceof DeleteRowsEventData) {
                        DeleteRowsEventData x = (DeleteRowsEventData) d;
                        if (ours(tableNames.get(x.getTableId()), table)) {
                            x.getRows()
                                    .forEach(
                                            row ->
                                                    current.get()
                                                            .changes
                                                            .add(
                                                                    new Change(
                                                                            converter.fromBinlog(
                                                                                    row),
                                                                            null)));
                        }
                    }
                    if (d instanceof XidEventData
                            || (d instanceof com.github.shyiko.mysql.binlog.event.QueryEventData
                                    && current.get() != null
                                    && isEndOfDdl(
                                            (com.github.shyiko.mysql.binlog.event.QueryEventData)
                                                    d))) {
                        if (current.get() != null) {
                            processed.set(processed.get().add(current.get().gtid));
                            if (processed.get().containsAll(end)) {
                                done.countDown();
                            }
                        }
                    }
                });
        client.connect(10_000);
        try {
            assertThat(done.await(60, TimeUnit.SECONDS))
                    .as("binlog read up to the end position")
                    .isTrue();
        } finally {
            client.disconnect();
        }
        return out;
    }

    /** A DDL is one query event without XID (BEGIN is the start of a DML transaction). */
    private static boolean isEndOfDdl(com.github.shyiko.mysql.binlog.event.QueryEventData q) {
        return !"BEGIN".equalsIgnoreCase(q.getSql().trim());
    }

    private static boolean ours(String qualified, String table) {
        return qualified != null && qualified.equals(DB.name() + "." + table);
    }
}
