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
 * The distinct G of a table's chunks as one chain, smallest first, each written as its difference
 * from the one before ({@link GtidSetDeltas}): every chunk's G is a snapshot of one growing {@code
 * gtid_executed}, so each step is a few transactions. The chunks then refer to their G by rank.
 * Shared by the cursor gate's and the enumerator's state.
 */
@Internal
public final class GtidChain {

    private GtidChain() {}

    /** One distinct G, its size (the sort key) and its rank once sorted. */
    private static final class Link {
        final GtidSet g;
        final long size;
        int rank;

        Link(GtidSet g) {
            this.g = g;
            this.size = g.transactionCount();
        }
    }

    /**
     * Writes the chain of the distinct G in {@code perChunk}.
     *
     * @return each chunk's rank in the chain, in {@code perChunk}'s order
     */
    public static int[] write(List<GtidSet> perChunk, GtidSetDeltas.Writer sets, DataOutput out)
            throws IOException {
        Map<GtidSet, Link> distinct = new HashMap<>();
        List<Link> chain = new ArrayList<>();
        Link[] links = new Link[perChunk.size()];
        for (int i = 0; i < links.length; i++) {
            GtidSet g = perChunk.get(i);
            Link l = distinct.get(g);
            if (l == null) {
                l = new Link(g);
                distinct.put(g, l);
                chain.add(l);
            }
            links[i] = l;
        }
        chain.sort((a, b) -> Long.compare(a.size, b.size)); // stable: ties keep chunk order
        Varints.writeInt(out, chain.size());
        GtidSet previous = GtidSet.empty();
        for (int r = 0; r < chain.size(); r++) {
            Link l = chain.get(r);
            l.rank = r;
            sets.write(previous, l.g, out);
            previous = l.g;
        }
        int[] ranks = new int[links.length];
        for (int i = 0; i < links.length; i++) {
            ranks[i] = links[i].rank;
        }
        return ranks;
    }

    /** Reads a chain {@link #write} wrote; at most {@code maxDistinct} G. */
    public static GtidSet[] read(GtidSetDeltas.Reader sets, DataInput in, int maxDistinct)
            throws IOException {
        int distinct = Varints.readInt(in);
        if (distinct > maxDistinct) {
            throw new IOException("corrupt state: more distinct G than chunks");
        }
        GtidSet[] chain = new GtidSet[distinct];
        GtidSet previous = GtidSet.empty();
        for (int i = 0; i < distinct; i++) {
            chain[i] = sets.read(previous, in);
            previous = chain[i];
        }
        return chain;
    }
}
