package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcBoundaryQueries;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcKeyValues;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcKeyWeights;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyComparator;
import io.capstan.flink.mysql.snapshot.key.KeyExtractor;
import io.capstan.flink.mysql.snapshot.key.KeyKind;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.snapshot.plan.TableChunkPlanner;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.table.data.RowData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;

import static io.capstan.flink.mysql.snapshot.read.SnapshotTestSupport.resolve;
import static io.capstan.flink.mysql.snapshot.read.SnapshotTestSupport.spec;
import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Planning and reading every chunk of real tables through the connector user: integer keys dense
 * and sparse, every supported key type (whose order must equal the server's ORDER BY), composite
 * keys, a chunk key column, an empty table; refusals; and the lock wait budget.
 */
class ChunkReadingIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static MySqlConnectionConfig config() {
        return connectorConfig(DB);
    }

    private TableId table(String name) {
        return TableId.of(DB.name(), name);
    }

    /** Plans lazily and reads each chunk right away, as the source will. */
    private static List<ChunkResult> snapshot(ChunkKey key, int chunkSize, ChunkReader reader)
            throws Exception {
        List<ChunkResult> out = new ArrayList<>();
        TableReadSpec spec = spec(config(), key);
        try (Connection c = JdbcConnections.open(config())) {
            TableChunkPlanner planner =
                    new TableChunkPlanner(key, chunkSize, new JdbcBoundaryQueries(c));
            for (Optional<SnapshotChunk> chunk = planner.next();
                    chunk.isPresent();
                    chunk = planner.next()) {
                out.add(reader.read(chunk.get(), spec));
            }
        }
        return out;
    }

    /** Every row lies in the range of the chunk that returned it; all keys exactly once. */
    private static void assertReadsEveryRowOnce(
            ChunkKey key, List<ChunkResult> results, int chunkSize) throws Exception {
        KeyComparator order = KeyComparator.of(key);
        KeyExtractor extractor = KeyExtractor.of(key);
        List<KeyTuple> seen = new ArrayList<>();
        // One connection weighs every row: a connection per row made the six collated key types
        // take 6 to 8 s each (CI time), with the same weights.
        try (Connection weigher = key.needsWeights() ? JdbcConnections.open(config()) : null) {
            for (ChunkResult r : results) {
                assertThat(r.rowCount()).isLessThanOrEqualTo(chunkSize);
                for (RowData row : r.rows()) {
                    KeyTuple k =
                            key.needsWeights()
                                    ? weighed(weigher, key, extractor, row)
                                    : extractor.extract(row);
                    assertThat(r.chunk().range().contains(k, order)).isTrue();
                    seen.add(k);
                }
            }
        }
        seen.sort(order);
        List<KeyTuple> expected = serverOrderedKeys(key);
        assertThat(seen).hasSameSizeAs(expected);
        for (int i = 0; i < seen.size(); i++) {
            assertThat(order.compare(seen.get(i), expected.get(i))).isZero();
        }
    }

    /** A row's key with its collated columns weighed by the server, as the gate's keys are. */
    private static KeyTuple weighed(Connection c, ChunkKey key, KeyExtractor extractor, RowData row)
            throws Exception {
        byte[][] weights = new byte[key.arity()][];
        for (int i = 0; i < key.arity(); i++) {
            if (key.column(i).collation() != null) {
                String text = extractor.text(row, i).toString();
                weights[i] =
                        JdbcKeyWeights.weigh(c, key.column(i).collation(), List.of(text)).get(0);
            }
        }
        return extractor.extract(row, weights);
    }

    /** The keys as the server orders them. */
    private static List<KeyTuple> serverOrderedKeys(ChunkKey key) throws Exception {
        List<KeyTuple> keys = new ArrayList<>();
        StringBuilder order = new StringBuilder();
        try (Connection c = JdbcConnections.open(config());
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT "
                                        + key.selectList()
                                        + " FROM "
                                        + key.table().quoted()
                                        + " ORDER BY "
                                        + key.quotedColumnList())) {
            while (rs.next()) {
                keys.add(JdbcKeyValues.read(key, rs, 1));
            }
        }
        return keys;
    }

    @Test
    void denseIntegerKeysAreReadInArithmeticChunks() throws Exception {
        DB.execute("CREATE TABLE dense (id INT PRIMARY KEY, v VARCHAR(10))");
        insert("dense", 1000, i -> (i + 1) + ", 'r'");
        DB.execute("ANALYZE TABLE dense");
        ChunkKey key = resolve(config(), table("dense"), Optional.empty());
        try (ChunkReader reader = new ChunkReader(config(), SnapshotReadOptions.defaults());
                Connection c = JdbcConnections.open(config())) {
            TableChunkPlanner planner = new TableChunkPlanner(key, 100, new JdbcBoundaryQueries(c));
            planner.next();
            assertThat(planner.state().mode()).isEqualTo(ChunkPlannerState.Mode.ARITHMETIC);
            List<ChunkResult> results = snapshot(key, 100, reader);
            assertThat(results).hasSize(10);
            assertReadsEveryRowOnce(key, results, 100);
        }
    }

    @Test
    void sparseIntegerKeysAreReadInQueryPlannedChunks() throws Exception {
        DB.execute("CREATE TABLE sparse (id BIGINT PRIMARY KEY, v INT)");
        insert("sparse", 700, i -> ((long) i * i * 7919 - 1_000_000) + ", " + i);
        DB.execute("ANALYZE TABLE sparse");
        ChunkKey key = resolve(config(), table("sparse"), Optional.empty());
        try (ChunkReader reader = new ChunkReader(config(), SnapshotReadOptions.defaults())) {
            List<ChunkResult> results = snapshot(key, 64, reader);
            assertThat(results).hasSize(11);
            assertReadsEveryRowOnce(key, results, 64);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "tinyint",
                "tinyint unsigned",
                "smallint unsigned",
                "mediumint",
                "int unsigned",
                "bigint unsigned",
                "decimal(12,3)",
                "date",
                "datetime(6)",
                "timestamp(3)",
                "time(6)",
                "year",
                "binary(4)",
                "varbinary(6)",
                "bit(10)",
                "bit(64)",
                "varchar(12) charset utf8mb4 collate utf8mb4_bin",
                "char(6) charset utf8mb4 collate utf8mb4_bin",
                "varchar(12) charset utf8 collate utf8_bin",
                "char(8) charset ascii collate ascii_bin",
                "varchar(12) charset utf8mb4 collate utf8mb4_0900_ai_ci",
                "varchar(12) charset utf8mb4 collate utf8mb4_0900_as_cs",
                "char(10) charset utf8mb4 collate utf8mb4_general_ci",
                "varchar(12) charset utf8mb4 collate utf8mb4_unicode_ci",
                "varchar(12) charset latin1 collate latin1_swedish_ci",
                "char(8) charset ascii collate ascii_general_ci"
            })
    void everySupportedKeyTypeOrdersAsTheServerAndReadsExactly(String type) throws Exception {
        String name = "k_" + type.replaceAll("[^a-z0-9]", "_");
        DB.execute(
                "CREATE TABLE "
                        + name
                        + " (k "
                        + type
                        + " NOT NULL PRIMARY KEY, marker VARCHAR(40))");
        Random r = new Random(type.hashCode());
        StringBuilder sql = new StringBuilder("INSERT IGNORE INTO " + name + " VALUES ");
        for (int i = 0; i < 300; i++) {
            sql.append(i == 0 ? "" : ", ")
                    .append('(')
                    .append(literal(type, r))
                    .append(", 'SECRET-MARKER')");
        }
        DB.execute("SET SESSION time_zone = '+00:00'", sql.toString());
        ChunkKey key = resolve(config(), table(name), Optional.empty());
        List<KeyTuple> ordered = serverOrderedKeys(key);
        assertThat(ordered.size()).isGreaterThan(50);
        KeyComparator order = KeyComparator.of(key);
        for (int i = 1; i < ordered.size(); i++) {
            assertThat(order.compare(ordered.get(i - 1), ordered.get(i)))
                    .as("%s: server order position %d", type, i)
                    .isNegative();
        }
        try (ChunkReader reader = new ChunkReader(config(), SnapshotReadOptions.defaults())) {
            List<ChunkResult> results = snapshot(key, 17, reader);
            assertReadsEveryRowOnce(key, results, 17);
            for (ChunkResult res : results) {
                assertThat(res.toString()).doesNotContain("SECRET-MARKER");
                assertThat(res.chunk().toString()).doesNotContain("SECRET-MARKER");
            }
        }
    }

    @Test
    void compositeKeysOfMixedTypesAreReadExactly() throws Exception {
        DB.execute(
                "CREATE TABLE comp (a INT NOT NULL, b VARBINARY(4) NOT NULL, d DATETIME(6) NOT NULL,"
                        + " x DECIMAL(8,2), v INT, PRIMARY KEY (a, b, d))");
        Random r = new Random(7);
        StringBuilder sql = new StringBuilder("INSERT IGNORE INTO comp VALUES ");
        for (int i = 0; i < 600; i++) {
            sql.append(i == 0 ? "" : ", ")
                    .append('(')
                    .append(r.nextInt(5))
                    .append(", ")
                    .append(literal("varbinary(1)", r))
                    .append(", ")
                    .append(literal("datetime(6)", r))
                    .append(", 1.5, ")
                    .append(i)
                    .append(')');
        }
        DB.execute(sql.toString());
        ChunkKey key = resolve(config(), table("comp"), Optional.empty());
        assertThat(key.arity()).isEqualTo(3);
        try (ChunkReader reader = new ChunkReader(config(), SnapshotReadOptions.defaults())) {
            assertReadsEveryRowOnce(key, snapshot(key, 23, reader), 23);
        }
        // and with a server cursor instead of streaming
        try (ChunkReader reader =
                new ChunkReader(
                        config(),
                        new SnapshotReadOptions(
                                7, Duration.ofSeconds(1), Duration.ofSeconds(10)))) {
            assertReadsEveryRowOnce(key, snapshot(key, 50, reader), 50);
        }
    }

    @Test
    void aTableWithoutPrimaryKeyIsReadByItsChunkKeyColumn() throws Exception {
        DB.execute("CREATE TABLE nopk (code BINARY(8) NOT NULL, v INT, UNIQUE KEY uq (code))");
        insert(
                "nopk",
                400,
                i -> "UNHEX('" + String.format("%016x", (long) i * 2654435761L) + "'), " + i);
        ChunkKey key = resolve(config(), table("nopk"), Optional.of("code"));
        assertThat(key.source()).isEqualTo(ChunkKey.Source.CHUNK_KEY_COLUMN);
        assertThat(key.column(0).kind()).isEqualTo(KeyKind.BINARY);
        try (ChunkReader reader = new ChunkReader(config(), SnapshotReadOptions.defaults())) {
            assertReadsEveryRowOnce(key, snapshot(key, 30, reader), 30);
        }
        // Without the option the unique column is not a chunk key: one unsplit chunk.
        ChunkKey keyless = resolve(config(), table("nopk"), Optional.empty());
        assertThat(keyless.isKeyless()).isTrue();
        try (ChunkReader reader = new ChunkReader(config(), SnapshotReadOptions.defaults())) {
            List<ChunkResult> one = snapshot(keyless, 30, reader);
            assertThat(one).hasSize(1);
            assertThat(one.get(0).rowCount()).isEqualTo(400);
            assertThat(one.get(0).gtidSet().isEmpty()).isFalse();
        }
        assertThatThrownBy(() -> resolve(config(), table("nopk"), Optional.of("v")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.INVALID_CONFIGURATION));
    }

    @Test
    void anEmptyTableCompletesAsOneChunkWithNoRows() throws Exception {
        DB.execute("CREATE TABLE empty_t (id BIGINT PRIMARY KEY)");
        ChunkKey key = resolve(config(), table("empty_t"), Optional.empty());
        try (ChunkReader reader = new ChunkReader(config(), SnapshotReadOptions.defaults())) {
            List<ChunkResult> results = snapshot(key, 10, reader);
            assertThat(results).hasSize(1);
            assertThat(results.get(0).rowCount()).isZero();
            assertThat(results.get(0).chunk().range().isFirst()).isTrue();
            assertThat(results.get(0).chunk().range().isLast()).isTrue();
            assertThat(results.get(0).gtidSet().isEmpty()).isFalse();
        }
    }

    @Test
    void aTableWithoutKeyIsOneChunkAnEnumKeyIsRefusedAndAStringKeyInAnyCollationIsNot()
            throws Exception {
        DB.execute(
                "CREATE TABLE keyless (a INT, b INT)",
                "INSERT INTO keyless VALUES (1, 1), (1, 1), (2, NULL), (NULL, NULL)",
                "CREATE TABLE strkey (name VARCHAR(20) PRIMARY KEY, v INT)",
                "CREATE TABLE enumkey (e ENUM('x','y') PRIMARY KEY)");
        ChunkKey keyless = resolve(config(), table("keyless"), Optional.empty());
        assertThat(keyless.isKeyless()).isTrue();
        try (ChunkReader reader = new ChunkReader(config(), SnapshotReadOptions.defaults())) {
            List<ChunkResult> one = snapshot(keyless, 1, reader);
            assertThat(one).as("one unsplit chunk, whatever the chunk size").hasSize(1);
            assertThat(one.get(0).rowCount()).as("identical rows are two rows").isEqualTo(4);
        }
        ChunkKey strkey = resolve(config(), table("strkey"), Optional.empty());
        assertThat(strkey.column(0).kind()).isEqualTo(KeyKind.STRING_COLLATED);
        assertThat(strkey.column(0).collation().name())
                .isEqualTo("utf8mb4_0900_ai_ci"); // the server's default
        assertThat(strkey.column(0).collation().padSpace()).isFalse();
        assertThatThrownBy(() -> resolve(config(), table("enumkey"), Optional.empty()))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.UNSUPPORTED_CHUNK_KEY));
    }

    @Test
    void theLockWaitBudgetRunsOutWhileAnotherSessionHoldsAWriteLock() throws Exception {
        DB.execute(
                "CREATE TABLE locked (id BIGINT PRIMARY KEY)",
                "INSERT INTO locked VALUES (1), (2)");
        ChunkKey key = resolve(config(), table("locked"), Optional.empty());
        TableReadSpec spec = spec(config(), key);
        SnapshotChunk all =
                new SnapshotChunk(
                        key.table(), 0, io.capstan.flink.mysql.snapshot.plan.ChunkRange.all());
        SnapshotReadOptions options =
                new SnapshotReadOptions(0, Duration.ofSeconds(1), Duration.ofSeconds(3));
        try (ChunkReader reader = new ChunkReader(config(), options)) {
            try (Connection holder = DB.openRootConnection();
                    Statement st = holder.createStatement()) {
                st.execute("LOCK TABLES locked WRITE");
                long start = System.nanoTime();
                assertThatThrownBy(() -> reader.read(all, spec))
                        .isInstanceOfSatisfying(
                                io.capstan.flink.mysql.error.RetryBudgetExhaustedException.class,
                                e ->
                                        assertThat(e.reason())
                                                .isEqualTo(HaltReason.LOCK_WAIT_BUDGET_EXHAUSTED))
                        .hasMessageContaining(DB.name() + ".locked")
                        .hasMessageContaining("scan.snapshot.lock-wait.budget");
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertThat(took).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(6));
                st.execute("UNLOCK TABLES");
            }
            // the same reader recovers once the lock is gone
            assertThat(reader.read(all, spec).rowCount()).isEqualTo(2);
        }
    }

    /**
     * A DDL that asks for its exclusive lock while A holds the table lock queues ahead of B's
     * metadata lock request, and waits for A, which waits for B: without B's bounded wait this read
     * never returns, and writers of the table stay blocked behind the DDL. The reader lets go, the
     * DDL runs, and the next attempt sees the new definition (halts) or, for a DDL that keeps the
     * definition, reads the chunk.
     */
    @Test
    void aDdlQueuedWhileTheTableIsLockedIsLetThroughAndThenSeen() throws Exception {
        for (boolean changesDefinition : new boolean[] {true, false}) {
            String name = changesDefinition ? "queued_ddl" : "queued_rebuild";
            DB.execute("CREATE TABLE " + name + " (id BIGINT PRIMARY KEY, v INT)");
            insert(name, 100, i -> i + ", " + i);
            ChunkKey key = resolve(config(), table(name), Optional.empty());
            TableReadSpec spec = spec(config(), key);
            SnapshotChunk all =
                    new SnapshotChunk(
                            key.table(), 0, io.capstan.flink.mysql.snapshot.plan.ChunkRange.all());
            String ddl =
                    changesDefinition
                            ? "ALTER TABLE " + name + " ADD COLUMN extra INT"
                            : "ALTER TABLE " + name + " ENGINE=InnoDB"; // rebuilds, same definition
            QueuedDdl queued = new QueuedDdl(ddl);
            try (ChunkReader reader =
                    new ChunkReader(config(), SnapshotReadOptions.defaults(), queued)) {
                org.junit.jupiter.api.function.ThrowingSupplier<Object> read =
                        () -> {
                            try {
                                return reader.read(all, spec);
                            } catch (CapstanHaltException e) {
                                return e;
                            }
                        };
                Object outcome =
                        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                                Duration.ofSeconds(60),
                                read,
                                "the read hung behind the queued DDL");
                if (changesDefinition) {
                    assertThat(outcome)
                            .isInstanceOfSatisfying(
                                    CapstanHaltException.class,
                                    e ->
                                            assertThat(e.reason())
                                                    .isEqualTo(HaltReason.SNAPSHOT_SCHEMA_DRIFTED));
                } else {
                    assertThat(((ChunkResult) outcome).rowCount()).isEqualTo(100);
                }
            } finally {
                queued.close();
            }
            assertThat(queued.outcome()).isEqualTo("done");
        }
    }

    /**
     * Sends a DDL from another session the first time A holds the lock, and waits until it queues.
     */
    private static final class QueuedDdl implements BriefLockListener, AutoCloseable {
        private final String ddl;
        private final java.util.concurrent.ExecutorService session =
                java.util.concurrent.Executors.newSingleThreadExecutor();
        private java.util.concurrent.Future<String> result;

        QueuedDdl(String ddl) {
            this.ddl = ddl;
        }

        @Override
        public void whileLocked(TableId table) {
            if (result != null) {
                return;
            }
            result =
                    session.submit(
                            () -> {
                                DB.execute(ddl);
                                return "done";
                            });
            try (Connection c = DB.openRootConnection();
                    PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                                            + " WHERE INFO = ? AND STATE = 'Waiting for table metadata lock'")) {
                ps.setString(1, ddl);
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (true) {
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        if (rs.getLong(1) > 0) {
                            return;
                        }
                    }
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("the DDL never queued for the metadata lock");
                    }
                    Thread.sleep(10);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        String outcome() throws Exception {
            return result.get(60, java.util.concurrent.TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            session.shutdown();
        }
    }

    @Test
    void aSchemaChangeBetweenChunksHaltsTheNextChunk() throws Exception {
        for (String ddl :
                List.of(
                        "ALTER TABLE %s ADD COLUMN extra INT", // instant in 8.0
                        "ALTER TABLE %s MODIFY COLUMN v BIGINT", // copying
                        "ALTER TABLE %s DROP COLUMN v",
                        "RENAME TABLE %s TO %s_old")) {
            String name = "drift_" + Math.abs(ddl.hashCode() % 10_000);
            DB.execute("CREATE TABLE " + name + " (id BIGINT PRIMARY KEY, v INT)");
            insert(name, 100, i -> i + ", " + i);
            ChunkKey key = resolve(config(), table(name), Optional.empty());
            TableReadSpec spec = spec(config(), key);
            try (ChunkReader reader = new ChunkReader(config(), SnapshotReadOptions.defaults());
                    Connection c = JdbcConnections.open(config())) {
                TableChunkPlanner planner =
                        new TableChunkPlanner(key, 30, new JdbcBoundaryQueries(c));
                assertThat(reader.read(planner.next().orElseThrow(), spec).rowCount())
                        .isEqualTo(30);
                SnapshotChunk next = planner.next().orElseThrow();
                DB.execute(String.format(ddl, name, name));
                assertThatThrownBy(() -> reader.read(next, spec))
                        .as(ddl)
                        .isInstanceOfSatisfying(
                                CapstanHaltException.class,
                                e ->
                                        assertThat(e.reason())
                                                .isEqualTo(HaltReason.SNAPSHOT_SCHEMA_DRIFTED))
                        .hasMessageContaining(DB.name() + "." + name);
            }
        }
    }

    /**
     * Changes the SHOW CREATE TABLE text but not the converted schema, so only the fingerprint's
     * collations and key index see them: a string key's new collation reorders its ranges (the next
     * chunk's bounds would skip or repeat rows), a chunk key column that lost its unique index is
     * no longer a key.
     */
    @Test
    void aCollationOrKeyIndexChangeBetweenChunksHaltsTheNextChunk() throws Exception {
        record Case(String name, String create, String ddl, Function<Integer, String> row) {}
        Optional<String> none = Optional.empty();
        for (Case c :
                List.of(
                        new Case(
                                "coll_key",
                                "k VARCHAR(32) COLLATE utf8mb4_0900_ai_ci PRIMARY KEY, v INT",
                                "ALTER TABLE %s MODIFY k VARCHAR(32) COLLATE utf8mb4_bin NOT NULL",
                                i -> "'k" + (i * 7919 % 1000) + "', " + i),
                        new Case(
                                "coll_col",
                                "id BIGINT PRIMARY KEY, s VARCHAR(32) COLLATE utf8mb4_0900_ai_ci",
                                "ALTER TABLE %s MODIFY s VARCHAR(32) COLLATE utf8mb4_bin",
                                i -> i + ", 's" + i + "'"),
                        new Case(
                                "key_index",
                                "code BIGINT NOT NULL, v INT, UNIQUE KEY uk_code (code)",
                                "ALTER TABLE %s DROP INDEX uk_code, ADD INDEX ix_code (code)",
                                i -> i + ", " + i))) {
            DB.execute("CREATE TABLE " + c.name() + " (" + c.create() + ")");
            insert(c.name(), 100, c.row());
            ChunkKey key =
                    resolve(
                            config(),
                            table(c.name()),
                            c.name().equals("key_index") ? Optional.of("code") : none);
            TableReadSpec spec = spec(config(), key);
            try (ChunkReader reader = new ChunkReader(config(), SnapshotReadOptions.defaults());
                    Connection conn = JdbcConnections.open(config())) {
                TableChunkPlanner planner =
                        new TableChunkPlanner(key, 30, new JdbcBoundaryQueries(conn));
                assertThat(reader.read(planner.next().orElseThrow(), spec).rowCount())
                        .isEqualTo(30);
                SnapshotChunk next = planner.next().orElseThrow();
                DB.execute(String.format(c.ddl(), c.name()));
                assertThatThrownBy(() -> reader.read(next, spec))
                        .as(c.ddl())
                        .isInstanceOfSatisfying(
                                CapstanHaltException.class,
                                e ->
                                        assertThat(e.reason())
                                                .isEqualTo(HaltReason.SNAPSHOT_SCHEMA_DRIFTED))
                        .hasMessageContaining(DB.name() + "." + c.name());
            }
        }
    }

    private void insert(String table, int rows, Function<Integer, String> values) {
        StringBuilder sql = new StringBuilder("INSERT INTO " + table + " VALUES ");
        for (int i = 0; i < rows; i++) {
            sql.append(i == 0 ? "" : ", ").append('(').append(values.apply(i)).append(')');
        }
        DB.execute(sql.toString());
    }

    /** A random SQL literal of the type. */
    private static String literal(String type, Random r) {
        String base = type.replaceAll("[ (].*", "");
        switch (base) {
            case "tinyint":
                return Integer.toString(
                        type.contains("unsigned") ? r.nextInt(256) : r.nextInt(256) - 128);
            case "smallint":
                return Integer.toString(r.nextInt(65536));
            case "mediumint":
                return Integer.toString(r.nextInt(1 << 24) - (1 << 23));
            case "int":
                return Long.toString(Integer.toUnsignedLong(r.nextInt()));
            case "bigint":
                return new BigInteger(64, r).toString();
            case "decimal":
                return java.math.BigDecimal.valueOf(r.nextInt(2_000_000_000) - 1_000_000_000L, 3)
                        .toPlainString();
            case "date":
                return "'" + LocalDate.ofEpochDay(r.nextInt(2_900_000) - 350_000) + "'";
            case "datetime":
                return "'"
                        + LocalDateTime.ofEpochSecond(
                                        r.nextInt(2_000_000_000) - 1_000_000_000L,
                                        r.nextInt(1_000_000) * 1000,
                                        ZoneOffset.UTC)
                                .toString()
                                .replace('T', ' ')
                        + "'";
            case "timestamp":
                return "'"
                        + LocalDateTime.ofEpochSecond(
                                        1 + r.nextInt(2_000_000_000),
                                        r.nextInt(1000) * 1_000_000,
                                        ZoneOffset.UTC)
                                .toString()
                                .replace('T', ' ')
                        + "'";
            case "time":
                {
                    long micros =
                            (long) (r.nextDouble() * 2 * 3_020_399_000_000L) - 3_020_399_000_000L;
                    long abs = Math.abs(micros);
                    return String.format(
                            "'%s%d:%02d:%02d.%06d'",
                            micros < 0 ? "-" : "",
                            abs / 3_600_000_000L,
                            abs / 60_000_000 % 60,
                            abs / 1_000_000 % 60,
                            abs % 1_000_000);
                }
            case "year":
                return Integer.toString(1901 + r.nextInt(255));
            case "binary":
            case "varbinary":
                {
                    int max = Integer.parseInt(type.replaceAll("\\D", ""));
                    byte[] b = new byte[r.nextInt(max + 1)];
                    for (int i = 0; i < b.length; i++) {
                        b[i] =
                                (byte)
                                        (r.nextInt(4) == 0
                                                ? 0
                                                : r.nextInt(256)); // zeros are frequent
                    }
                    return "X'" + HexFormat.of().formatHex(b) + "'";
                }
            case "varchar":
            case "char":
                return stringLiteral(type, r);
            case "bit": // bit(64) also above 2^63, which a signed long cannot hold
                return type.equals("bit(64)")
                        ? new BigInteger(64, r).toString()
                        : Integer.toString(r.nextInt(1024));
            default:
                throw new IllegalArgumentException(type);
        }
    }

    /**
     * A random string as a hex literal of its bytes in the column's character set: letters, a
     * frequent trailing or inner space, control characters below the space (which sort before a
     * padding space), and outside ascii accented letters, CJK and (utf8mb4) emoji.
     */
    private static String stringLiteral(String type, Random r) {
        int max = Integer.parseInt(type.replaceAll("^[a-z]+\\((\\d+)\\).*$", "$1"));
        String charset = type.replaceAll("^.* charset ([a-z0-9]+) .*$", "$1");
        String[] alphabet =
                charset.equals("latin1")
                        ? new String[] {"a", "b", "B", " ", "\t", "\u0001", "é", "É", "ß", "s"}
                        : charset.equals("ascii")
                                ? new String[] {"a", "b", "B", " ", "\t", "\u0001", "~", "0"}
                                : charset.equals("utf8")
                                        ? new String[] {
                                            "a", "b", "B", " ", "\t", "\u0001", "é", "É", "中",
                                            "\uFFFD"
                                        }
                                        : new String[] {
                                            "a",
                                            "b",
                                            "B",
                                            " ",
                                            "\t",
                                            "\u0001",
                                            "é",
                                            "É",
                                            "中",
                                            "\uD83D\uDE00"
                                        };
        StringBuilder v = new StringBuilder();
        int length = r.nextInt(max + 1);
        for (int i = 0; i < length; i++) {
            v.append(alphabet[r.nextInt(alphabet.length)]);
        }
        if (type.startsWith("char")) {
            // CHAR drops trailing spaces on read; keep them out so the inserted value is the read
            // one.
            while (v.length() > 0 && v.charAt(v.length() - 1) == ' ') {
                v.setLength(v.length() - 1);
            }
        }
        byte[] bytes = v.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        // latin1 values as UTF-8 text the server converts on insert
        String introducer = charset.equals("latin1") ? "utf8mb4" : charset;
        return "_" + introducer + " X'" + HexFormat.of().formatHex(bytes) + "'";
    }
}
