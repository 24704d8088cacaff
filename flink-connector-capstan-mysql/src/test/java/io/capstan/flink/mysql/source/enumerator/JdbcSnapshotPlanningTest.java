package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.preflight.AccountPrivileges;
import io.capstan.flink.mysql.preflight.GrantParser;
import io.capstan.flink.mysql.preflight.PreflightException;
import io.capstan.flink.mysql.preflight.ServerFacts;
import io.capstan.flink.mysql.preflight.ServerVersion;
import io.capstan.flink.mysql.proxy.FakeJdbcProxy;
import io.capstan.flink.mysql.proxy.FakeMySql;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.snapshot.read.TableFingerprints;
import io.capstan.flink.mysql.source.CapstanSourceConfig;

import org.apache.flink.configuration.Configuration;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The snapshot's planning through the JDBC proxy, against the fake server. */
class JdbcSnapshotPlanningTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final TableId ITEMS = TableId.of("shop", "items");
    private static final TableId OTHER = TableId.of("crm", "people");

    private final FakeMySql mysql =
            new FakeMySql().table(ORDERS, 10).table(ITEMS, 3).table(OTHER, 1);
    private final FakeJdbcProxy proxy = mysql.jdbc();

    private JdbcSnapshotPlanning planning(int chunkSize, String... tableList) {
        return new JdbcSnapshotPlanning(
                FakeMySql.sourceConfig(StartupOptions.initial(), chunkSize, tableList), proxy);
    }

    @Test
    void resolvesTheSelectedTablesWithTheirChunkKeysAndSchemaFingerprints() throws Exception {
        List<SnapshotTable> tables = planning(4, "shop\\..*").resolveTables();
        assertThat(tables).extracting(t -> t.key().table()).containsExactly(ITEMS, ORDERS);
        for (SnapshotTable t : tables) {
            assertThat(t.key().source()).isEqualTo(ChunkKey.Source.PRIMARY_KEY);
            assertThat(t.key().columns()).extracting(c -> c.name()).containsExactly("id");
            assertThat(t.schemaFingerprint())
                    .isEqualTo(
                            TableFingerprints.of(
                                    FakeMySql.keyValueSchema(t.key().table()),
                                    FakeMySql.keyValueMetadata(t.key().table()),
                                    t.key()));
        }
        assertThat(mysql.calls(FakeMySql.SERVER_FACTS)).as("the preflight ran").isEqualTo(1);
        assertThat(mysql.connects()).as("one connection for it all").isEqualTo(1);
    }

    @Test
    void noMatchingTableHalts() {
        assertThatThrownBy(() -> planning(4, "shop\\.absent").resolveTables())
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.NO_TABLES_MATCHED))
                .hasMessageContaining(FakeMySql.ADDRESS);
    }

    @Test
    void anUnsafeServerIsRefusedBeforeAnyTableIsLookedAt() {
        mysql.facts(FakeMySql.facts("OFF"));
        assertThatThrownBy(() -> planning(4, "shop\\.orders").resolveTables())
                .isInstanceOfSatisfying(
                        PreflightException.class,
                        e ->
                                assertThat(e.failures())
                                        .extracting(f -> f.reason())
                                        .containsExactly(HaltReason.BINLOG_DISABLED));
        assertThat(mysql.calls(FakeMySql.KEY_METADATA)).isZero();
    }

    @Test
    void aSnapshotFromAReplicaOfAMariaDbPrimaryIsRefusedBeforeTheReplicaIsRead() {
        Map<String, String> v = new HashMap<>();
        v.put("log_bin", "ON");
        v.put("binlog_format", "ROW");
        v.put("binlog_row_image", "FULL");
        v.put("binlog_row_metadata", "FULL");
        v.put("log_bin_compress", "OFF");
        mysql.facts(
                new ServerFacts(
                        ServerVersion.mariaDb(10, 11, 6),
                        v,
                        new AccountPrivileges(
                                "capstan",
                                "%",
                                GrantParser.parseAll(
                                        List.of(
                                                "GRANT SELECT, LOCK TABLES, REPLICATION SLAVE,"
                                                        + " BINLOG MONITOR ON *.* TO `capstan`@`%`")),
                                true,
                                false)));
        FakeMySql replica = new FakeMySql().table(ORDERS, 10);
        JdbcSnapshotPlanning planning =
                new JdbcSnapshotPlanning(
                        FakeMySql.sourceConfig(StartupOptions.initial(), 4, "shop\\.orders"),
                        proxy,
                        replica.jdbc());
        assertThatThrownBy(planning::resolveTables)
                .isInstanceOfSatisfying(
                        PreflightException.class,
                        e ->
                                assertThat(e.failures())
                                        .extracting(f -> f.reason())
                                        .containsExactly(HaltReason.INVALID_CONFIGURATION))
                .hasMessageContaining("scan.snapshot.hostname");
        assertThat(replica.calls(FakeMySql.SERVER_FACTS)).isZero();
    }

    @Test
    void aSelectedTableWithAMariaDbOwnTypeHaltsAtStartAndAtARestore() {
        mysql.mariaDbOwnTypeColumn(ITEMS, "serial", "uuid");
        haltsAtStartAndAtARestoreOfTheShop(
                HaltReason.UNSUPPORTED_COLUMN_TYPE, "shop.items column serial has the type uuid");
    }

    @Test
    void aSelectedSystemVersionedTableHaltsAtStartAndAtARestore() {
        mysql.systemVersionedTable(TableId.of("shop", "prices"));
        haltsAtStartAndAtARestoreOfTheShop(HaltReason.SYSTEM_VERSIONED_TABLE, "shop.prices");
    }

    /** Planning, and both restore checks, of {@code shop.*} halt; of {@code shop.orders} pass. */
    private void haltsAtStartAndAtARestoreOfTheShop(HaltReason reason, String message) {
        for (ThrowingCallable call :
                List.<ThrowingCallable>of(
                        () -> planning(4, "shop\\..*").resolveTables(),
                        () -> planning(4, "shop\\..*").checkRestoredTables(List.of(ORDERS)),
                        () -> planning(4, "shop\\..*").checkRestoredSplit(List.of(ORDERS)))) {
            assertThatThrownBy(call)
                    .isInstanceOfSatisfying(
                            CapstanHaltException.class,
                            e -> assertThat(e.reason()).isEqualTo(reason))
                    .hasMessageContaining(message);
        }
        assertThatCode(() -> planning(4, "shop\\.orders").checkRestoredTables(List.of(ORDERS)))
                .doesNotThrowAnyException();
    }

    @Test
    void aNonTransactionalTableIsRefusedNamingTableAndEngine() {
        mysql.engine(ITEMS, "MyISAM");
        assertThatThrownBy(() -> planning(4, "shop\\..*").resolveTables())
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.NON_TRANSACTIONAL_TABLE))
                .hasMessageContaining("shop.items")
                .hasMessageContaining("MyISAM")
                .hasMessageContaining("ENGINE = InnoDB");
    }

    @Test
    void aTableWithoutKeyIsPlannedAsOneUnsplitChunkWithoutBoundaryQueries() throws Exception {
        TableId log = TableId.of("shop", "log");
        mysql.keylessTable(log);
        JdbcSnapshotPlanning planning = planning(4, "shop\\.log");
        List<ChunkKey> keys = List.of(planning.resolveTables().get(0).key());
        assertThat(keys.get(0).isKeyless()).isTrue();
        int boundaryCalls = mysql.calls(FakeMySql.BOUNDARY);

        SnapshotPlanning.Planned planned = planning.planMore(keys, List.of(), 10);

        assertThat(planned.chunks()).hasSize(1);
        assertThat(planned.chunks().get(0).range()).isEqualTo(ChunkRange.all());
        assertThat(mysql.calls(FakeMySql.BOUNDARY))
                .as("no MIN/MAX/boundary query over a key it does not have")
                .isEqualTo(boundaryCalls);
    }

    @Test
    void aKeylessTableAboveTheLimitHaltsNamingTableOptionAndRemedy() {
        TableId log = TableId.of("shop", "log");
        mysql.keylessTable(log);
        for (int i = 0; i < 5; i++) {
            mysql.rows(log).add(FakeMySql.row(i, "v"));
        }
        Configuration keylessLimit = new Configuration();
        keylessLimit.set(CapstanMySqlOptions.SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS, 4L);
        CapstanSourceConfig limited =
                FakeMySql.sourceConfig(StartupOptions.initial(), 4, keylessLimit, "shop\\.log");
        assertThatThrownBy(() -> new JdbcSnapshotPlanning(limited, proxy).resolveTables())
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.TABLE_WITHOUT_KEY))
                .hasMessageContaining("shop.log")
                .hasMessageContaining("scan.snapshot.keyless-table.max-rows")
                .hasMessageContaining("add a primary key");
        assertThatCode(() -> planning(4, "shop\\.log").resolveTables())
                .as("within the default limit")
                .doesNotThrowAnyException();
    }

    @Test
    void plansChunksOfTheConfiguredSizeAndResumesFromTheReturnedProgress() throws Exception {
        JdbcSnapshotPlanning planning = planning(4, "shop\\.orders");
        List<ChunkKey> keys = List.of(planning.resolveTables().get(0).key());

        SnapshotPlanning.Planned first = planning.planMore(keys, List.of(), 2);
        assertThat(first.chunks()).hasSize(2);
        SnapshotPlanning.Planned rest = planning.planMore(keys, first.states(), 10);
        List<SnapshotChunk> all = new ArrayList<>(first.chunks());
        all.addAll(rest.chunks());
        assertThat(all).extracting(SnapshotChunk::index).containsExactly(0, 1, 2);
        assertThat(all)
                .extracting(SnapshotChunk::range)
                .containsExactly(
                        ChunkRange.of(null, KeyTuple.of(5L)),
                        ChunkRange.of(KeyTuple.of(5L), KeyTuple.of(9L)),
                        ChunkRange.of(KeyTuple.of(9L), null));
        assertThat(rest.states()).allMatch(s -> s.isFinished());
    }

    @Test
    void aFailedBoundaryQueryFailsThePlanAndTheNextAttemptReconnects() throws Exception {
        JdbcSnapshotPlanning planning = planning(4, "shop\\.orders");
        List<ChunkKey> keys = List.of(planning.resolveTables().get(0).key());
        mysql.failNext(FakeMySql.BOUNDARY, 1);
        assertThatThrownBy(() -> planning.planMore(keys, List.of(), 10))
                .isInstanceOf(IOException.class);
        assertThat(proxy.connected()).isFalse();
        assertThat(planning.planMore(keys, List.of(), 10).chunks()).hasSize(3);
        assertThat(mysql.connects()).isEqualTo(2);
    }

    @Test
    void closeReleasesTheConnection() throws Exception {
        JdbcSnapshotPlanning planning = planning(4, "shop\\.orders");
        planning.resolveTables();
        assertThat(mysql.openConnections()).isEqualTo(1);
        planning.close();
        assertThat(mysql.openConnections()).isZero();
    }

    @Test
    void readsTheRetentionAndTheRowEstimateOfTheTablesAskedFor() throws Exception {
        io.capstan.flink.mysql.preflight.ServerFacts safe = FakeMySql.facts("ON");
        java.util.Map<String, String> v = new java.util.HashMap<>(safe.variables());
        v.put("binlog_expire_logs_seconds", "86400");
        v.put("expire_logs_days", "0");
        mysql.facts(
                new io.capstan.flink.mysql.preflight.ServerFacts(
                        safe.version(), v, safe.privileges()));
        JdbcSnapshotPlanning planning = planning(4, "shop\\..*");
        List<ChunkKey> keys = new ArrayList<>();
        planning.resolveTables().forEach(t -> keys.add(t.key()));

        SnapshotPlanning.RetentionFacts facts = planning.retentionFacts(keys);
        assertThat(facts.retention())
                .contains(new BinlogRetention(86_400, "binlog_expire_logs_seconds"));
        assertThat(facts.estimatedRows()).hasValue(10 + 3);

        assertThat(planning.retentionFacts(List.of()).estimatedRows())
                .as("a look of the purge watch asks no row estimate")
                .isEmpty();
        assertThat(mysql.connects()).as("the planning connection").isEqualTo(1);
    }
}
