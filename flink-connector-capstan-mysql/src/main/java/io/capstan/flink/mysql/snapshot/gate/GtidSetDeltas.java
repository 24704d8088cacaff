package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.annotation.Internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Binary GTID sets written as differences from a reference set, for the gate's state. The G of the
 * chunks of a snapshot are all snapshots of one growing {@code gtid_executed}, so sorted by size
 * each G is the previous one plus the few transactions committed in between: usually one interval
 * of one source. A set is written as {@code add = set − reference} and {@code remove = reference −
 * set} (empty for such a chain, but any two sets round-trip).
 *
 * <p>Binary, not text: a source (uuid and tag) is written once per stream and then by its index,
 * and an interval's first number relative to where the last interval of that source ended, so a run
 * of growing prefixes costs a few bytes each. A {@link Writer} and the {@link Reader} of its bytes
 * keep the same dictionary and cursors: read the sets in the order they were written.
 */
@Internal
public final class GtidSetDeltas {

    private GtidSetDeltas() {}

    /** One source's ranges, half-open {@code [bounds[2k], bounds[2k+1])}. */
    private record SourceRanges(String uuid, String tag, List<long[]> ranges) {}

    /** Writes sets relative to a reference, in a stream that shares one source dictionary. */
    public static final class Writer {
        private final Map<String, Integer> sources = new HashMap<>();
        private final List<long[]> cursors = new ArrayList<>();

        public void write(GtidSet reference, GtidSet set, DataOutput out) throws IOException {
            writeSet(set.subtract(reference), out);
            writeSet(reference.subtract(set), out);
        }

        private void writeSet(GtidSet set, DataOutput out) throws IOException {
            List<SourceRanges> parts = decompose(set);
            Varints.writeInt(out, parts.size());
            for (SourceRanges p : parts) {
                String name = p.uuid() + ':' + p.tag();
                Integer index = sources.get(name);
                if (index == null) {
                    index = sources.size();
                    sources.put(name, index);
                    cursors.add(new long[1]);
                    Varints.writeInt(out, index);
                    out.writeUTF(p.uuid());
                    out.writeUTF(p.tag());
                } else {
                    Varints.writeInt(out, index);
                }
                long[] cursor = cursors.get(index);
                Varints.writeInt(out, p.ranges().size());
                for (long[] r : p.ranges()) {
                    Varints.writeSignedLong(out, r[0] - cursor[0]);
                    Varints.writeLong(out, r[1] - r[0]);
                    cursor[0] = r[1];
                }
            }
        }
    }

    /** Reads what a {@link Writer} wrote, in the same order. */
    public static final class Reader {
        private final List<String[]> sources = new ArrayList<>();
        private final List<long[]> cursors = new ArrayList<>();

        public GtidSet read(GtidSet reference, DataInput in) throws IOException {
            GtidSet add = readSet(in);
            GtidSet remove = readSet(in);
            return reference.union(add).subtract(remove);
        }

        private GtidSet readSet(DataInput in) throws IOException {
            int parts = Varints.readInt(in);
            if (parts == 0) {
                return GtidSet.empty();
            }
            GtidSet.Builder b = GtidSet.builder();
            for (int i = 0; i < parts; i++) {
                int index = Varints.readInt(in);
                if (index == sources.size()) {
                    sources.add(new String[] {in.readUTF(), in.readUTF()});
                    cursors.add(new long[1]);
                } else if (index < 0 || index > sources.size()) {
                    throw new IOException("corrupt GTID set: source index out of range");
                }
                String[] source = sources.get(index);
                long[] cursor = cursors.get(index);
                int ranges = Varints.readInt(in);
                for (int k = 0; k < ranges; k++) {
                    long first = cursor[0] + Varints.readSignedLong(in);
                    long end = first + Varints.readLong(in);
                    try {
                        b.addRange(source[0], source[1], first, end - 1);
                    } catch (IllegalArgumentException e) {
                        throw new IOException("corrupt GTID set: " + e.getMessage(), e);
                    }
                    cursor[0] = end;
                }
            }
            return b.build();
        }
    }

    /** The sources of a set with their half-open ranges, in the set's canonical order. */
    private static List<SourceRanges> decompose(GtidSet set) {
        List<SourceRanges> out = new ArrayList<>();
        set.forEachInterval(
                (uuid, tag, first, end) -> {
                    SourceRanges last = out.isEmpty() ? null : out.get(out.size() - 1);
                    if (last == null || !last.uuid().equals(uuid) || !last.tag().equals(tag)) {
                        last = new SourceRanges(uuid, tag, new ArrayList<>());
                        out.add(last);
                    }
                    last.ranges().add(new long[] {first, end});
                });
        return out;
    }
}
