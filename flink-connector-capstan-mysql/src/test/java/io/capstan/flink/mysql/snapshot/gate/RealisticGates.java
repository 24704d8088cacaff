package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The finished chunks of a BIGINT-keyed table snapshotted while a writer commits throughout, on a
 * server whose {@code gtid_executed} holds two source UUIDs and a gap: each chunk's G is the
 * handoff's start set plus the writer's transactions committed before the chunk was read. Four
 * readers finish chunks slightly out of key order, a few to a few dozen transactions commit between
 * two completions, and one G in twenty misses a transaction still committing (group commit makes
 * {@code gtid_executed} briefly non-contiguous).
 */
public final class RealisticGates {

    public static final String WRITER = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    public static final String OTHER = "b8c5a1e2-0c2d-11ef-8d41-0242ac120002";
    public static final long CHUNK_SIZE = 8_096;

    /** The G of every chunk, in chunk (key) order. */
    public static List<GtidSet> gtidSets(int chunks, long seed) {
        Random random = new Random(seed);
        long written = 40_000_000L; // transactions of the writer before the snapshot
        GtidSet start =
                GtidSet.parse(WRITER + ":1-1000000:1000002-" + written + "," + OTHER + ":1-5:7-12");
        // completion order: chunk order shuffled within windows of 4 (the readers)
        int[] order = new int[chunks];
        for (int i = 0; i < chunks; i++) {
            order[i] = i;
        }
        for (int w = 0; w < chunks; w += 4) {
            int end = Math.min(chunks, w + 4);
            for (int i = end - 1; i > w; i--) {
                int j = w + random.nextInt(i - w + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
        GtidSet[] byChunk = new GtidSet[chunks];
        long committed = written;
        for (int done = 0; done < chunks; done++) {
            committed += 1 + random.nextInt(30);
            GtidSet.Builder g = GtidSet.builder().addAll(start);
            if (committed > written) {
                if (random.nextInt(20) == 0 && committed - written > 2) {
                    g.addRange(WRITER, "", written + 1, committed - 2);
                    g.addRange(WRITER, "", committed, committed);
                } else {
                    g.addRange(WRITER, "", written + 1, committed);
                }
            }
            byChunk[order[done]] = g.build();
        }
        return List.of(byChunk);
    }

    /** The chunks tiling a BIGINT key space, chunk i holding {@code [i, i+1) * CHUNK_SIZE}. */
    public static List<FinishedChunk> chunks(List<GtidSet> gtidSets) {
        int n = gtidSets.size();
        List<FinishedChunk> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new FinishedChunk(range(i, n), gtidSets.get(i)));
        }
        return out;
    }

    public static ChunkRange range(int i, int n) {
        return ChunkRange.of(
                i == 0 ? null : KeyTuple.of(i * CHUNK_SIZE),
                i == n - 1 ? null : KeyTuple.of((i + 1) * CHUNK_SIZE));
    }

    private RealisticGates() {}
}
