package io.capstan.flink.mysql.source.split;

import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.StreamOrigin;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.snapshot.gate.FinishedChunk;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.TestKeys;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.source.enumerator.EnumState;
import io.capstan.flink.mysql.source.enumerator.SnapshotBook;
import io.capstan.flink.mysql.source.enumerator.SnapshotProgress;
import io.capstan.flink.mysql.source.enumerator.SnapshotTable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects whose version-1 and version-2 bytes are checked in under
 * src/test/resources/serializer/. Never change these objects or the files: they pin what old
 * checkpoints and savepoints hold.
 */
public final class SerializerFixtures {

    static final String RESOURCE_DIR = "serializer/";

    static final GtidSet PROCESSED =
            GtidSet.parse(
                    "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5000:5002-9000,"
                            + "b8c5a1e2-0c2d-11ef-8d41-0242ac120002:1-77");
    static final List<TableId> TABLES =
            List.of(
                    TableId.of("shop", "orders"),
                    TableId.of("shop", "order_line"),
                    TableId.of("crm", "kunde_ä"));

    static final BinlogSplit BINLOG_AT_BOUNDARY =
            new BinlogSplit(TABLES, BinlogStartPosition.of(PROCESSED));
    static final BinlogSplit BINLOG_INSIDE_TRANSACTION =
            new BinlogSplit(
                    TABLES,
                    BinlogStartPosition.of(
                            PROCESSED,
                            Gtid.of("3e11fa47-71ca-11e1-9e33-c80aa9429562", 5001),
                            31_337));

    static final EnumState ENUM_INITIAL = EnumState.initial();
    static final EnumState ENUM_PENDING = new EnumState(BINLOG_AT_BOUNDARY, false);
    static final EnumState ENUM_ASSIGNED = new EnumState(null, true);

    // ---- version 2 ----

    static final ChunkKey KEY = TestKeys.bigint();
    static final GtidSet G1 = GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-100");
    static final GtidSet G2 = GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-104");
    static final SnapshotChunk CHUNK_0 =
            new SnapshotChunk(KEY.table(), 0, ChunkRange.of(null, KeyTuple.of(1000L)));
    static final SnapshotChunk CHUNK_1 =
            new SnapshotChunk(KEY.table(), 1, ChunkRange.of(KeyTuple.of(1000L), null));
    static final SnapshotChunkSplit CHUNK_UNREAD =
            SnapshotChunkSplit.unread(KEY, CHUNK_1, 0x1234_5678_9abc_def0L);
    static final SnapshotChunkSplit CHUNK_COMPLETED =
            SnapshotChunkSplit.unread(KEY, CHUNK_0, 0x1234_5678_9abc_def0L)
                    .withCompletion(new ChunkCompletion(G1, 999));
    static final BinlogSplit BINLOG_WITH_GATE =
            new BinlogSplit(
                    List.of(KEY.table()),
                    BinlogStartPosition.of(G1),
                    CursorGate.of(
                            Map.of(
                                    KEY,
                                    List.of(
                                            new FinishedChunk(CHUNK_0.range(), G1),
                                            new FinishedChunk(CHUNK_1.range(), G2)))));
    static final EnumState ENUM_SNAPSHOTTING =
            new EnumState(
                    null,
                    false,
                    new SnapshotProgress(
                            List.of(new SnapshotTable(KEY, 0x1234_5678_9abc_def0L)),
                            List.of(
                                    new ChunkPlannerState(
                                            KEY.table(),
                                            ChunkPlannerState.Mode.FINISHED,
                                            2,
                                            null,
                                            null)),
                            List.of(CHUNK_UNREAD),
                            Map.of(
                                    KEY.table(),
                                    List.of(
                                            new SnapshotBook.Finished(
                                                    CHUNK_0, new ChunkCompletion(G1, 999)))),
                            7,
                            6));

    private SerializerFixtures() {}

    static Map<String, CapstanSplit> splitsV2() {
        Map<String, CapstanSplit> m = new LinkedHashMap<>();
        m.put("binlog-split-boundary.v2.bin", BINLOG_AT_BOUNDARY);
        m.put("binlog-split-gate.v2.bin", BINLOG_WITH_GATE);
        m.put("chunk-split-unread.v2.bin", CHUNK_UNREAD);
        m.put("chunk-split-completed.v2.bin", CHUNK_COMPLETED);
        return m;
    }

    static Map<String, EnumState> enumStatesV2() {
        Map<String, EnumState> m = new LinkedHashMap<>();
        m.put("enum-state-pending.v2.bin", new EnumState(BINLOG_WITH_GATE, false));
        m.put("enum-state-snapshotting.v2.bin", ENUM_SNAPSHOTTING);
        return m;
    }

    // ---- version 3: the same objects, the gate compact (docs/adr/0007) ----

    static Map<String, CapstanSplit> splitsV3() {
        Map<String, CapstanSplit> m = new LinkedHashMap<>();
        m.put("binlog-split-gate.v3.bin", BINLOG_WITH_GATE);
        m.put("chunk-split-completed.v3.bin", CHUNK_COMPLETED);
        return m;
    }

    static Map<String, EnumState> enumStatesV3() {
        Map<String, EnumState> m = new LinkedHashMap<>();
        m.put("enum-state-pending.v3.bin", new EnumState(BINLOG_WITH_GATE, false));
        m.put("enum-state-snapshotting.v3.bin", ENUM_SNAPSHOTTING);
        m.put("enum-state-assigned.v3.bin", new EnumState(null, true, null, TABLES));
        return m;
    }

    /** Version 4 added the flag of tables being added (docs/adr/0009). */
    static Map<String, EnumState> enumStatesV4() {
        Map<String, EnumState> m = new LinkedHashMap<>();
        m.put("enum-state-pending.v4.bin", new EnumState(BINLOG_WITH_GATE, false));
        m.put("enum-state-snapshotting.v4.bin", ENUM_SNAPSHOTTING);
        m.put("enum-state-assigned.v4.bin", new EnumState(null, true, null, TABLES));
        m.put(
                "enum-state-adding.v4.bin",
                new EnumState(null, true, ENUM_SNAPSHOTTING.snapshot(), TABLES, true));
        return m;
    }

    /** Version 4 of splits (enumerator state version 5) keeps a binlog split's stream origin. */
    static Map<String, CapstanSplit> splitsV4() {
        Map<String, CapstanSplit> m = new LinkedHashMap<>();
        m.put(
                "binlog-split-gate-after-snapshot.v4.bin",
                BINLOG_WITH_GATE.withOrigin(StreamOrigin.AFTER_SNAPSHOT));
        m.put(
                "binlog-split-timestamp.v4.bin",
                BINLOG_INSIDE_TRANSACTION.withOrigin(StreamOrigin.streamOnly(1_700_000_000_123L)));
        m.put(
                "binlog-split-stream-only.v4.bin",
                BINLOG_AT_BOUNDARY.withOrigin(StreamOrigin.streamOnly(null)));
        m.put("binlog-split-unknown.v4.bin", BINLOG_AT_BOUNDARY);
        m.put("chunk-split-completed.v4.bin", CHUNK_COMPLETED);
        return m;
    }

    static Map<String, EnumState> enumStatesV5() {
        Map<String, EnumState> m = new LinkedHashMap<>();
        m.put(
                "enum-state-pending.v5.bin",
                new EnumState(
                        BINLOG_AT_BOUNDARY.withOrigin(StreamOrigin.streamOnly(1_700_000_000_123L)),
                        false));
        m.put("enum-state-snapshotting.v5.bin", ENUM_SNAPSHOTTING);
        m.put(
                "enum-state-adding.v5.bin",
                new EnumState(null, true, ENUM_SNAPSHOTTING.snapshot(), TABLES, true));
        return m;
    }

    static Map<String, BinlogSplit> splits() {
        Map<String, BinlogSplit> m = new LinkedHashMap<>();
        m.put("binlog-split-boundary.v1.bin", BINLOG_AT_BOUNDARY);
        m.put("binlog-split-partial.v1.bin", BINLOG_INSIDE_TRANSACTION);
        return m;
    }

    static Map<String, EnumState> enumStates() {
        Map<String, EnumState> m = new LinkedHashMap<>();
        m.put("enum-state-initial.v1.bin", ENUM_INITIAL);
        m.put("enum-state-pending.v1.bin", ENUM_PENDING);
        m.put("enum-state-assigned.v1.bin", ENUM_ASSIGNED);
        return m;
    }

    static byte[] read(String name) throws IOException {
        try (InputStream in =
                SerializerFixtures.class
                        .getClassLoader()
                        .getResourceAsStream(RESOURCE_DIR + name)) {
            if (in == null) {
                throw new IOException("missing checked-in serializer bytes " + RESOURCE_DIR + name);
            }
            return in.readAllBytes();
        }
    }

    /** Where the generator writes: the source tree, not target/. */
    static Path sourceFile(String name) throws IOException {
        Path dir = Paths.get("src/test/resources", RESOURCE_DIR);
        Files.createDirectories(dir);
        return dir.resolve(name);
    }
}
