package io.capstan.flink.mysql.source.split;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.snapshot.gate.FinishedChunk;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.TestKeys;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.source.SourceDefinition;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The value types written as records keep the value-free {@code toString} their classes had (a
 * record's generated one prints every component: key bounds, passwords) and their equality.
 */
class ValueRecordsTest {

    private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final GtidSet G = GtidSet.parse(UUID + ":1-10");
    private static final long SECRET_KEY = 424_242_424_242L;
    private static final ChunkKey KEY = TestKeys.bigint();

    private static ChunkRange secretRange() {
        return ChunkRange.of(KeyTuple.of(SECRET_KEY), KeyTuple.of(SECRET_KEY + 1));
    }

    /** A gate over the whole key space, split at the secret key. */
    private static CursorGate secretGate() {
        return CursorGate.of(
                Map.of(
                        KEY,
                        List.of(
                                new FinishedChunk(ChunkRange.of(null, KeyTuple.of(SECRET_KEY)), G),
                                new FinishedChunk(
                                        ChunkRange.of(KeyTuple.of(SECRET_KEY), null), G))));
    }

    @Test
    void chunksSplitsAndPlannerStatesPrintIdentifiersOnly() {
        SnapshotChunk chunk = new SnapshotChunk(KEY.table(), 3, secretRange());
        SnapshotChunkSplit split = SnapshotChunkSplit.unread(KEY, chunk, 7L);
        FinishedChunk finished = new FinishedChunk(secretRange(), G);
        ChunkPlannerState state =
                new ChunkPlannerState(
                        KEY.table(),
                        ChunkPlannerState.Mode.QUERY,
                        4,
                        KeyTuple.of(SECRET_KEY),
                        KeyTuple.of(SECRET_KEY + 9));
        BinlogSplit binlog =
                new BinlogSplit(List.of(KEY.table()), BinlogStartPosition.of(G), secretGate());

        assertThat(chunk.range()).hasToString("ChunkRange{low=bounded, high=bounded}");
        assertThat(chunk)
                .hasToString("SnapshotChunk{db.t#3, ChunkRange{low=bounded, high=bounded}}");
        assertThat(split).hasToString("SnapshotChunkSplit{db.t#3}");
        assertThat(split.withCompletion(new ChunkCompletion(G, 5)))
                .hasToString("SnapshotChunkSplit{db.t#3, ChunkCompletion{G=" + G + ", rows=5}}");
        assertThat(finished).hasToString("FinishedChunk{ChunkRange{low=bounded, high=bounded}}");
        assertThat(state).hasToString("ChunkPlannerState{table=db.t, mode=QUERY, nextIndex=4}");
        assertThat(binlog)
                .hasToString(
                        "BinlogSplit{tables=1, processed="
                                + G
                                + ", partial=none, rowsAlreadyEmitted=0,"
                                + " gate=CursorGate{tables=1, chunks=2},"
                                + " origin=unknown (a checkpoint of an older version)}");
        for (Object o : List.of(chunk, split, finished, state, binlog)) {
            assertThat(o.toString()).doesNotContain(Long.toString(SECRET_KEY).substring(0, 6));
        }
    }

    @Test
    void aConnectionConfigPrintsNeitherThePasswordNorPropertyValues() {
        MySqlConnectionConfig config =
                MySqlConnectionConfig.builder()
                        .hostname("db.example")
                        .username("cdc")
                        .password("s3cr3t-pw")
                        .jdbcProperty("trustCertificateKeyStorePassword", "ks-s3cr3t")
                        .build();

        assertThat(config.toString())
                .doesNotContain("s3cr3t")
                .contains("address=db.example:3306", "password=******")
                .contains("jdbcProperties=[trustCertificateKeyStorePassword]");
        assertThat(config.toBuilder().build()).isEqualTo(config).hasSameHashCodeAs(config);
        assertThat(config.toBuilder().password("other").build()).isNotEqualTo(config);
    }

    @Test
    void aSourceDefinitionPrintsPropertyKeysNotValues() {
        SourceDefinition definition =
                new SourceDefinition(
                        List.of("shop"),
                        List.of("shop.orders"),
                        Map.of("shop.orders", "order_no"),
                        List.of("id"),
                        Map.of("trustCertificateKeyStorePassword", "ks-s3cr3t"));

        assertThat(definition.toString())
                .doesNotContain("s3cr3t")
                .contains("jdbcProperties=[trustCertificateKeyStorePassword]")
                .contains("databaseList=[shop]", "tableList=[shop.orders]")
                .contains("chunkKeyColumnByTable={shop.orders=order_no}", "snapshotColumns=[id]");
        assertThat(definition)
                .isEqualTo(
                        new SourceDefinition(
                                List.of("shop"),
                                List.of("shop.orders"),
                                Map.of("shop.orders", "order_no"),
                                List.of("id"),
                                Map.of("trustCertificateKeyStorePassword", "ks-s3cr3t")));
    }

    @Test
    void keyBoundsCompareByValueNotByArrayIdentity() {
        ChunkRange a = ChunkRange.of(KeyTuple.of(new byte[] {1, 2}), null);
        ChunkRange b = ChunkRange.of(KeyTuple.of(new byte[] {1, 2}), null);
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(ChunkRange.of(KeyTuple.of(new byte[] {1, 3}), null));
        assertThat(new ChunkRange(null, null)).isEqualTo(ChunkRange.all());
    }

    @Test
    void binlogSplitsWithEqualGatesAreEqual() {
        BinlogSplit one =
                new BinlogSplit(List.of(KEY.table()), BinlogStartPosition.of(G), secretGate());
        BinlogSplit two =
                new BinlogSplit(List.of(KEY.table()), BinlogStartPosition.of(G), secretGate());
        assertThat(one).isEqualTo(two).hasSameHashCodeAs(two);
        assertThat(one).isNotEqualTo(one.withStart(BinlogStartPosition.of(G), CursorGate.empty()));
    }

    @Test
    void aStartPositionHasOneFormWhicheverWayItIsBuilt() {
        BinlogStartPosition direct = new BinlogStartPosition(G, Gtid.of(UUID, 11), 0);
        assertThat(direct).isEqualTo(BinlogStartPosition.of(G));
        assertThat(direct.partialGtid()).isNull();
    }
}
