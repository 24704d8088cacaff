package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.key.TestKeys;

import org.apache.flink.table.data.StringData;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The gate's compact encoding (docs/adr/0007): GTID set differences, bound deltas, versions. */
class GateCodecTest {

    private static final String[] UUIDS = {
        "3e11fa47-71ca-11e1-9e33-c80aa9429562",
        "8a94f357-aab4-11df-86ab-c80aa9429563",
        "b8c5a1e2-0c2d-11ef-8d41-0242ac120002"
    };
    private static final String[] TAGS = {"", "", "tag_a", "b2"};

    private static GtidSet randomSet(Random r) {
        GtidSet.Builder b = GtidSet.builder();
        int ranges = r.nextInt(6);
        for (int i = 0; i < ranges; i++) {
            long first = 1 + (r.nextInt(4) == 0 ? Gtid.MAX_TRANSACTION_ID - 50 : r.nextInt(200));
            long last = Math.min(Gtid.MAX_TRANSACTION_ID, first + r.nextInt(40));
            b.addRange(UUIDS[r.nextInt(UUIDS.length)], TAGS[r.nextInt(TAGS.length)], first, last);
        }
        return b.build();
    }

    @Property(tries = 300)
    void anySetsRoundTripAsDifferencesInOneStream(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 20) int count) throws IOException {
        Random r = new Random(seed);
        List<GtidSet> sets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sets.add(randomSet(r));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        GtidSetDeltas.Writer writer = new GtidSetDeltas.Writer();
        GtidSet previous = GtidSet.empty();
        for (GtidSet s : sets) {
            writer.write(previous, s, out);
            previous = s;
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        GtidSetDeltas.Reader reader = new GtidSetDeltas.Reader();
        previous = GtidSet.empty();
        for (GtidSet s : sets) {
            GtidSet back = reader.read(previous, in);
            assertThat(back).isEqualTo(s);
            previous = back;
        }
        assertThat(in.available()).isZero();
    }

    @Test
    void aGrowingPrefixCostsAFewBytes() throws IOException {
        GtidSet base = GtidSet.parse(UUIDS[0] + ":1-1000:1002-90000," + UUIDS[1] + ":1-5");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        GtidSetDeltas.Writer writer = new GtidSetDeltas.Writer();
        writer.write(GtidSet.empty(), base, out);
        int first = bytes.size();
        GtidSet previous = base;
        for (int i = 1; i <= 100; i++) {
            GtidSet next =
                    base.union(
                            GtidSet.builder()
                                    .addRange(UUIDS[0], "", 90001, 90000 + 7L * i)
                                    .build());
            writer.write(previous, next, out);
            previous = next;
        }
        assertThat((bytes.size() - first) / 100.0).isLessThanOrEqualTo(6.0);
    }

    private static KeyTuple randomBound(Random r, int kind) {
        switch (kind) {
            case 0:
                return KeyTuple.of(r.nextBoolean() ? r.nextLong() : (long) r.nextInt(1000));
            case 1:
                return KeyTuple.of(r.nextBoolean() ? r.nextInt() : r.nextInt(1000));
            case 2:
                return KeyTuple.of(StringData.fromString("k" + r.nextInt(50)));
            default:
                return KeyTuple.of((long) r.nextInt(9), r.nextInt(9));
        }
    }

    @Property(tries = 300)
    void boundsOfAnyTypeRoundTripIncludingOverflowingDeltas(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 40) int count) throws IOException {
        Random r = new Random(seed);
        List<KeyTuple> bounds = new ArrayList<>();
        int kind = r.nextInt(4);
        for (int i = 0; i < count; i++) {
            if (r.nextInt(10) == 0) {
                bounds.add(null);
            } else if (r.nextInt(8) == 0 && !bounds.isEmpty() && bounds.get(i - 1) != null) {
                bounds.add(bounds.get(i - 1));
            } else {
                bounds.add(randomBound(r, r.nextInt(5) == 0 ? r.nextInt(4) : kind));
            }
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        ChunkBoundDeltas writer = new ChunkBoundDeltas();
        for (KeyTuple b : bounds) {
            writer.write(b, out);
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        ChunkBoundDeltas reader = new ChunkBoundDeltas();
        for (KeyTuple b : bounds) {
            assertThat(reader.read(in)).isEqualTo(b);
        }
        assertThat(in.available()).isZero();
    }

    @Property(tries = 100)
    void gatesWrittenByTheVersion1FormatReadAsTheSameGate(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 30) int chunkCount)
            throws IOException {
        Random r = new Random(seed);
        List<GtidSet> gs = new ArrayList<>();
        for (int i = 0; i < chunkCount; i++) {
            gs.add(r.nextInt(3) == 0 && i > 0 ? gs.get(i - 1) : randomSet(r));
        }
        ChunkKey key = TestKeys.bigint();
        CursorGate gate = CursorGate.of(Map.of(key, RealisticGates.chunks(gs)));
        CursorGate fromOld = CursorGateSerializer.fromBytes(CursorGateVersion1Writer.toBytes(gate));
        CursorGate fromNew = CursorGateSerializer.fromBytes(CursorGateSerializer.encode(gate));
        byte[] expected = CursorGateSerializer.encode(gate);
        assertThat(CursorGateSerializer.encode(fromOld)).isEqualTo(expected);
        assertThat(CursorGateSerializer.encode(fromNew)).isEqualTo(expected);
        TableGate t = fromNew.tableGates().get(key.table());
        for (int i = 0; i < chunkCount; i++) {
            assertThat(t.gtidSet(i)).isEqualTo(gs.get(i));
            assertThat(t.low(i)).isEqualTo(RealisticGates.range(i, chunkCount).low());
        }
    }

    @Test
    void aRetiredGateTakesTwoBytesAndCorruptBytesAreRefused() throws IOException {
        assertThat(CursorGateSerializer.toBytes(CursorGate.empty())).hasSize(2);
        assertThat(CursorGateSerializer.fromBytes(new byte[] {2, 0}).chunkCount()).isZero();
        CursorGate gate =
                CursorGate.of(
                        Map.of(
                                TestKeys.bigint(),
                                RealisticGates.chunks(RealisticGates.gtidSets(50, 1))));
        byte[] bytes = CursorGateSerializer.encode(gate);
        assertThat(CursorGateSerializer.toBytes(gate)).isSameAs(CursorGateSerializer.toBytes(gate));
        byte[] badVersion = bytes.clone();
        badVersion[0] = 9;
        assertThatThrownBy(() -> CursorGateSerializer.fromBytes(badVersion))
                .hasMessageContaining("version 9");
        byte[] truncated = java.util.Arrays.copyOf(bytes, bytes.length - 4);
        assertThatThrownBy(() -> CursorGateSerializer.fromBytes(truncated))
                .isInstanceOf(IOException.class);
    }
}
