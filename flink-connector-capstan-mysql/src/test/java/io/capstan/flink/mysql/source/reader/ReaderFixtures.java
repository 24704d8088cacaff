package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.proxy.FakeMySql;
import io.capstan.flink.mysql.schema.SchemaFingerprint;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyColumn;
import io.capstan.flink.mysql.snapshot.key.KeyKind;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

import java.util.List;

/** Chunk splits of the fake server's key-value tables, for the reader's unit tests. */
final class ReaderFixtures {

    static final TableId TABLE = TableId.of("db", "t");

    private ReaderFixtures() {}

    static ChunkKey key(TableId table) {
        return new ChunkKey(
                table,
                List.of(new KeyColumn("id", 0, KeyKind.INTEGER, false, 0, 0, "bigint")),
                ChunkKey.Source.PRIMARY_KEY);
    }

    /** Chunk {@code index} of {@code table}: keys in [low, high), null for unbounded. */
    static SnapshotChunkSplit chunk(TableId table, int index, Long low, Long high) {
        SnapshotChunk chunk =
                new SnapshotChunk(
                        table,
                        index,
                        ChunkRange.of(
                                low == null ? null : KeyTuple.of(low),
                                high == null ? null : KeyTuple.of(high)));
        return SnapshotChunkSplit.unread(
                key(table), chunk, SchemaFingerprint.of(FakeMySql.keyValueSchema(table)));
    }

    static CapstanReaderMetrics metrics() {
        return new CapstanReaderMetrics(UnregisteredMetricsGroup.createSourceReaderMetricGroup());
    }
}
