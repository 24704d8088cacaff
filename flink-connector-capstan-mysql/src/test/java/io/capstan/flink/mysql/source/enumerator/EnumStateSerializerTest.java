package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.key.TestKeys;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplitSerializer;

import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Details of the enumerator state's bytes that the checked-in fixtures do not cover. */
class EnumStateSerializerTest {

    private final EnumStateSerializer serializer = EnumStateSerializer.INSTANCE;

    private static SnapshotProgress progress(OptionalLong lastTaken, OptionalLong latestAfter) {
        SplitAssignmentTracker t =
                SplitAssignmentTracker.restore(StartupMode.INITIAL, EnumState.initial());
        t.tablesResolved(List.of(new SnapshotTable(TestKeys.bigint(), 42L)));
        SnapshotProgress p = t.checkpoint(3).snapshot();
        return new SnapshotProgress(
                p.tables(), p.plannerStates(), p.pending(), p.finished(), lastTaken, latestAfter);
    }

    /**
     * The two checkpoint ids that end the snapshot progress (the last bytes of the state but two:
     * an empty list of captured tables, one byte, and the adding flag follow).
     */
    private static long[] storedCheckpointIds(byte[] bytes) throws IOException {
        DataInputDeserializer in =
                new DataInputDeserializer(
                        Arrays.copyOfRange(bytes, bytes.length - 18, bytes.length - 2));
        return new long[] {in.readLong(), in.readLong()};
    }

    @Test
    void noCheckpointIsStoredAsMinusOneAndReadBackAsNone() throws IOException {
        EnumState none =
                new EnumState(null, false, progress(OptionalLong.empty(), OptionalLong.empty()));
        byte[] bytes = serializer.serialize(none);
        assertThat(storedCheckpointIds(bytes)).containsExactly(-1L, -1L);
        assertThat(serializer.deserialize(serializer.getVersion(), bytes)).isEqualTo(none);

        EnumState taken =
                new EnumState(null, false, progress(OptionalLong.of(7), OptionalLong.empty()));
        byte[] takenBytes = serializer.serialize(taken);
        assertThat(storedCheckpointIds(takenBytes)).containsExactly(7L, -1L);
        assertThat(serializer.deserialize(serializer.getVersion(), takenBytes)).isEqualTo(taken);
    }

    @Test
    void aBinlogSplitBothAssignedAndPendingIsCorruptState() throws IOException {
        BinlogSplit split =
                new BinlogSplit(
                        List.of(TestKeys.bigint().table()),
                        BinlogStartPosition.of(
                                GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-50")));
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeBoolean(true); // assigned
        out.writeBoolean(true); // and pending
        CapstanSplitSerializer.write(split, out);
        out.writeBoolean(false); // no snapshot progress
        out.writeByte(0); // no captured tables
        out.writeBoolean(false); // not adding tables
        byte[] bytes = out.getCopyOfBuffer();
        assertThatThrownBy(() -> serializer.deserialize(serializer.getVersion(), bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt enumerator state");
    }

    @Test
    void tablesBeingAddedRoundTripAndNeedAnAssignedSplitAndTheirProgress() throws IOException {
        SnapshotProgress progress = progress(OptionalLong.of(3), OptionalLong.of(2));
        EnumState adding =
                new EnumState(null, true, progress, List.of(TestKeys.bigint().table()), true);
        byte[] bytes = serializer.serialize(adding);
        EnumState back = serializer.deserialize(serializer.getVersion(), bytes);
        assertThat(back).isEqualTo(adding);
        assertThat(back.addingTables()).isTrue();
        assertThat(
                        serializer
                                .deserialize(
                                        serializer.getVersion(),
                                        serializer.serialize(
                                                new EnumState(null, true, progress, List.of())))
                                .addingTables())
                .isFalse();
        byte[] notAssigned = serializer.serialize(new EnumState(null, false, progress, List.of()));
        notAssigned[notAssigned.length - 1] = 1; // adding, but no reader holds the split
        assertThatThrownBy(() -> serializer.deserialize(serializer.getVersion(), notAssigned))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt enumerator state");
    }
}
