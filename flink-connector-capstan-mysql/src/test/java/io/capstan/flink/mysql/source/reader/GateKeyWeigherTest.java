package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.proxy.FakeMySql;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.snapshot.gate.FinishedChunk;
import io.capstan.flink.mysql.snapshot.gate.GateKeys;
import io.capstan.flink.mysql.snapshot.gate.GatedChange;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.CollatedString;
import io.capstan.flink.mysql.snapshot.key.KeyCollation;
import io.capstan.flink.mysql.snapshot.key.KeyColumn;
import io.capstan.flink.mysql.snapshot.key.KeyKind;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.capstan.flink.mysql.source.TestChanges.SCHEMA;
import static io.capstan.flink.mysql.source.TestChanges.TABLE;
import static io.capstan.flink.mysql.source.TestChanges.UUID;
import static io.capstan.flink.mysql.source.TestChanges.end;
import static io.capstan.flink.mysql.source.TestChanges.gtid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The fetcher's weighing of collated keys: only gated tables whose key needs weights, one lookup
 * per collation and batch, none after the table retires, and the weighed keys place a change where
 * the server's collation puts it (the fake server weighs case-insensitively).
 */
class GateKeyWeigherTest {

    static final KeyCollation CI =
            new KeyCollation("utf8mb4_general_ci", "utf8mb4", true, new byte[] {0x20});

    /** The name column (row index 1) as a collated key. */
    static final ChunkKey KEY =
            new ChunkKey(
                    TABLE,
                    List.of(
                            new KeyColumn(
                                    "name",
                                    1,
                                    KeyKind.STRING_COLLATED,
                                    false,
                                    1020,
                                    0,
                                    "varchar",
                                    CI)),
                    ChunkKey.Source.CHUNK_KEY_COLUMN);

    /** Chunk 0 holds keys below 'm' and was read at 1-20, chunk 1 the rest at 1-10. */
    static final CursorGate GATE =
            CursorGate.of(
                    Map.of(
                            KEY,
                            List.of(
                                    new FinishedChunk(
                                            ChunkRange.of(null, weighed("m")),
                                            GtidSet.parse(UUID + ":1-20")),
                                    new FinishedChunk(
                                            ChunkRange.of(weighed("m"), null),
                                            GtidSet.parse(UUID + ":1-10")))));

    private final FakeMySql server = new FakeMySql();
    private final CapstanReaderMetrics metrics =
            new CapstanReaderMetrics(UnregisteredMetricsGroup.createSourceReaderMetricGroup());

    static KeyTuple weighed(String text) {
        return KeyTuple.of(
                new CollatedString(
                        StringData.fromString(text),
                        text.toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.UTF_8)));
    }

    static RowChange insert(long txn, int index, String name) {
        return new RowChange(
                TABLE,
                SCHEMA,
                Operation.INSERT,
                null,
                GenericRowData.of((long) index, StringData.fromString(name)),
                gtid(txn),
                index,
                1_000L);
    }

    private GateKeyWeigher weigher() {
        return new GateKeyWeigher(
                new BinlogSplit(
                        List.of(TABLE),
                        BinlogStartPosition.of(GtidSet.parse(UUID + ":1-10")),
                        GATE),
                server::jdbc,
                metrics);
    }

    @Test
    void weighsTheKeysOfABatchInOneLookupAndTheGatePlacesThemByTheServersCollation()
            throws Exception {
        List<BinlogRecord> batch =
                List.of(insert(11, 0, "ABC"), insert(11, 1, "Zed"), insert(11, 2, "abc"), end(11));
        List<SourceElement> out;
        try (GateKeyWeigher w = weigher()) {
            out = w.elements(batch);
        }
        assertThat(server.calls(FakeMySql.KEY_WEIGHTS)).isEqualTo(1);
        assertThat(out).hasSize(4);
        assertThat(out.get(3).gateKeys()).isNull(); // a transaction end
        List<Boolean> suppressed = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            GateKeys keys = out.get(i).gateKeys();
            assertThat(keys).isNotNull();
            RowChange c = (RowChange) out.get(i).asBinlogRecord();
            suppressed.add(GatedChange.of(GATE, c, keys).isSuppressed());
        }
        // 'ABC' and 'abc' sort below 'm' (chunk 0 holds txn 11). 'Zed' is above 'm' only
        // case-insensitively (bytewise 'Z' < 'm'): in chunk 1, which lacks 11, so it passes.
        assertThat(suppressed).containsExactly(true, false, true);
    }

    @Test
    void withoutItsWeighedKeysAGatedCollatedChangeFailsInsteadOfGuessing() {
        assertThatThrownBy(() -> GatedChange.of(GATE, insert(11, 0, "ABC")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("weights");
    }

    @Test
    void asksNothingOnceTheTableRetiresAndNeverConnectsForUngatedTables() throws Exception {
        try (GateKeyWeigher w = weigher()) {
            // 11..20 complete the union of the chunks' G (1-20): the table retires at 20's end.
            List<BinlogRecord> batch = new ArrayList<>();
            for (long txn = 11; txn <= 20; txn++) {
                batch.add(insert(txn, 0, "k" + txn));
                batch.add(end(txn));
            }
            w.elements(batch);
            int lookups = server.calls(FakeMySql.KEY_WEIGHTS);
            assertThat(lookups).isEqualTo(1);
            List<SourceElement> after = w.elements(List.of(insert(21, 0, "late"), end(21)));
            assertThat(after.get(0).gateKeys()).isNull();
            assertThat(server.calls(FakeMySql.KEY_WEIGHTS)).isEqualTo(lookups);
        }
        try (GateKeyWeigher w =
                new GateKeyWeigher(
                        new BinlogSplit(
                                List.of(TABLE),
                                BinlogStartPosition.of(GtidSet.parse(UUID + ":1-10"))),
                        server::jdbc,
                        metrics)) {
            int proxies = server.proxies.size();
            w.elements(List.of(insert(11, 0, "x"), end(11)));
            assertThat(server.proxies).hasSize(proxies); // no connection opened
        }
    }

    @Test
    void aLossyDecodedValueOfASingleByteCharsetHaltsByName() {
        KeyCollation latin1 =
                new KeyCollation("latin1_swedish_ci", "latin1", true, new byte[] {0x20});
        ChunkKey key =
                new ChunkKey(
                        TABLE,
                        List.of(
                                new KeyColumn(
                                        "name",
                                        1,
                                        KeyKind.STRING_COLLATED,
                                        false,
                                        255,
                                        0,
                                        "varchar",
                                        latin1)),
                        ChunkKey.Source.CHUNK_KEY_COLUMN);
        CursorGate gate =
                CursorGate.of(
                        Map.of(
                                key,
                                List.of(
                                        new FinishedChunk(
                                                ChunkRange.of(null, null),
                                                GtidSet.parse(UUID + ":1-20")))));
        GateKeyWeigher w =
                new GateKeyWeigher(
                        new BinlogSplit(
                                List.of(TABLE),
                                BinlogStartPosition.of(GtidSet.parse(UUID + ":1-10")),
                                gate),
                        server::jdbc,
                        metrics);
        assertThatThrownBy(() -> w.elements(List.of(insert(11, 0, "a\uFFFDb"))))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.UNSUPPORTED_CHUNK_KEY))
                .hasMessageContaining("column name")
                .hasMessageContaining("latin1")
                .hasMessageNotContaining("a\uFFFDb");
    }
}
