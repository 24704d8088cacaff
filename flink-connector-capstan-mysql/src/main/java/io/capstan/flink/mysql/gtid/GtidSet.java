package io.capstan.flink.mysql.gtid;

import org.apache.flink.annotation.Internal;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * An immutable set of GTIDs, as MySQL reports in {@code @@global.gtid_executed}: per source (uuid
 * and optional tag) a set of transaction-number ranges.
 *
 * <p>Each source's numbers are a sorted {@code long[]} of merged half-open ranges, so {@link
 * #contains(Gtid)} is two binary searches and {@link #add(Gtid)} copies only the affected source's
 * array while sharing the others. {@link #toString()} prints one canonical MySQL form (sources
 * sorted by uuid then tag, ranges sorted and merged, lower case, no whitespace), so equal sets
 * print equal text and {@code parse(s.toString()).equals(s)}.
 */
@Internal
public final class GtidSet implements Serializable {

    private static final long serialVersionUID = 1L;

    private static final String[] NO_STRINGS = new String[0];
    private static final long[][] NO_BOUNDS = new long[0][];
    private static final GtidSet EMPTY = new GtidSet(NO_STRINGS, NO_STRINGS, NO_BOUNDS);

    // Parallel arrays sorted by (uuid, tag); every bounds array is canonical and non-empty.
    // Never mutated after construction; arrays of unchanged sources are shared between sets.
    private final String[] uuids;
    private final String[] tags;
    private final long[][] bounds;
    private transient int hash;

    private GtidSet(String[] uuids, String[] tags, long[][] bounds) {
        this.uuids = uuids;
        this.tags = tags;
        this.bounds = bounds;
    }

    public static GtidSet empty() {
        return EMPTY;
    }

    public static GtidSet of(Gtid gtid) {
        return new GtidSet(
                new String[] {gtid.uuid()},
                new String[] {gtid.tag()},
                new long[][] {Intervals.single(gtid.transactionId())});
    }

    /**
     * Parses MySQL's text form of a GTID set, e.g. the value of {@code @@global.gtid_executed}:
     * {@code "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:11,\n2174b383-...:1-3:tag_a:1-9"}.
     * Whitespace around tokens, upper-case hex and tags, unsorted or overlapping ranges are
     * accepted; the empty string is the empty set.
     *
     * @throws IllegalArgumentException quoting the offending fragment when the text is not a GTID
     *     set
     */
    public static GtidSet parse(String text) {
        return GtidSetParser.parse(text);
    }

    public static Builder builder() {
        return new Builder();
    }

    public boolean isEmpty() {
        return uuids.length == 0;
    }

    public boolean contains(Gtid gtid) {
        int i = indexOf(gtid.uuid(), gtid.tag());
        return i >= 0 && Intervals.contains(bounds[i], gtid.transactionId());
    }

    /** Whether every GTID of {@code other} is in this set. */
    public boolean containsAll(GtidSet other) {
        for (int j = 0; j < other.uuids.length; j++) {
            int i = indexOf(other.uuids[j], other.tags[j]);
            if (i < 0 || !Intervals.containsAll(bounds[i], other.bounds[j])) {
                return false;
            }
        }
        return true;
    }

    /** This set plus one GTID; returns {@code this} when it is already contained. */
    public GtidSet add(Gtid gtid) {
        int i = indexOf(gtid.uuid(), gtid.tag());
        if (i >= 0) {
            long[] updated = Intervals.add(bounds[i], gtid.transactionId());
            if (updated == bounds[i]) {
                return this;
            }
            long[][] newBounds = bounds.clone();
            newBounds[i] = updated;
            return new GtidSet(uuids, tags, newBounds);
        }
        int at = -i - 1;
        return new GtidSet(
                insert(uuids, at, gtid.uuid()),
                insert(tags, at, gtid.tag()),
                insert(bounds, at, Intervals.single(gtid.transactionId())));
    }

    public GtidSet union(GtidSet other) {
        if (other.isEmpty() || other == this) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        return combine(other, Op.UNION);
    }

    public GtidSet intersect(GtidSet other) {
        if (other == this) {
            return this;
        }
        if (isEmpty() || other.isEmpty()) {
            return EMPTY;
        }
        return combine(other, Op.INTERSECT);
    }

    /** The GTIDs of this set that are not in {@code other}. */
    public GtidSet subtract(GtidSet other) {
        if (isEmpty() || other.isEmpty()) {
            return this;
        }
        return combine(other, Op.SUBTRACT);
    }

    /** How many GTIDs (transactions) the set holds. */
    public long transactionCount() {
        long count = 0;
        for (long[] b : bounds) {
            for (int k = 0; k < b.length; k += 2) {
                count += b[k + 1] - b[k];
            }
        }
        return count;
    }

    /** The distinct source UUIDs in this set (tagged or not), sorted. */
    public List<String> sourceIds() {
        List<String> ids = new ArrayList<>();
        for (String uuid : uuids) {
            if (ids.isEmpty() || !ids.get(ids.size() - 1).equals(uuid)) {
                ids.add(uuid);
            }
        }
        return Collections.unmodifiableList(ids);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof GtidSet)) {
            return false;
        }
        GtidSet s = (GtidSet) o;
        return Arrays.equals(uuids, s.uuids)
                && Arrays.equals(tags, s.tags)
                && Arrays.deepEquals(bounds, s.bounds);
    }

    @Override
    public int hashCode() {
        // Cached: sets are immutable, and the gate's encoders hash up to 10^6 of them per
        // checkpoint.
        int h = hash;
        if (h == 0) {
            h =
                    (Arrays.hashCode(uuids) * 31 + Arrays.hashCode(tags)) * 31
                            + Arrays.deepHashCode(bounds);
            hash = h;
        }
        return h;
    }

    /** Whether the set is not empty and every source id satisfies {@code test}. */
    public boolean isNonEmptyWithEverySourceId(Predicate<String> test) {
        for (String u : uuids) {
            if (!test.test(u)) return false;
        }
        return uuids.length > 0;
    }

    /**
     * Receives one interval of a set: transactions {@code first} to {@code end - 1} of a source.
     */
    @FunctionalInterface
    public interface IntervalConsumer {
        void accept(String uuid, String tag, long first, long end);
    }

    /**
     * Each interval in canonical order (by uuid, then tag, then number), without building the text:
     * for binary encoders that walk many sets.
     */
    public void forEachInterval(IntervalConsumer consumer) {
        for (int i = 0; i < uuids.length; i++) {
            long[] b = bounds[i];
            for (int k = 0; k < b.length; k += 2) {
                consumer.accept(uuids[i], tags[i], b[k], b[k + 1]);
            }
        }
    }

    /**
     * The canonical MySQL text: {@code uuid:1-5:7,uuid2:1-3:tag1:1-2:tag2:9} (a uuid's untagged
     * ranges first, then each tag in order); {@code ""} for the empty set.
     */
    @Override
    public String toString() {
        return GtidSetForm.text(uuids, tags, bounds);
    }

    // ---- internals ----

    private int indexOf(String uuid, String tag) {
        int lo = 0;
        int hi = uuids.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = Gtid.compareSource(uuids[mid], tags[mid], uuid, tag);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    private enum Op {
        UNION,
        INTERSECT,
        SUBTRACT
    }

    /** Merges the two sorted source lists, applying op to the ranges of each source. */
    private GtidSet combine(GtidSet other, Op op) {
        int max = uuids.length + other.uuids.length;
        String[] u = new String[max];
        String[] t = new String[max];
        long[][] b = new long[max][];
        int n = 0;
        int i = 0;
        int j = 0;
        while (i < uuids.length || j < other.uuids.length) {
            int c =
                    i >= uuids.length
                            ? 1
                            : j >= other.uuids.length
                                    ? -1
                                    : Gtid.compareSource(
                                            uuids[i], tags[i], other.uuids[j], other.tags[j]);
            long[] r;
            String uuid;
            String tag;
            if (c < 0) { // source only in this
                uuid = uuids[i];
                tag = tags[i];
                r = op == Op.INTERSECT ? Intervals.EMPTY : bounds[i];
                i++;
            } else if (c > 0) { // source only in other
                uuid = other.uuids[j];
                tag = other.tags[j];
                r = op == Op.UNION ? other.bounds[j] : Intervals.EMPTY;
                j++;
            } else {
                uuid = uuids[i];
                tag = tags[i];
                r =
                        op == Op.UNION
                                ? Intervals.union(bounds[i], other.bounds[j])
                                : op == Op.INTERSECT
                                        ? Intervals.intersect(bounds[i], other.bounds[j])
                                        : Intervals.subtract(bounds[i], other.bounds[j]);
                i++;
                j++;
            }
            if (r.length > 0) {
                u[n] = uuid;
                t[n] = tag;
                b[n] = r;
                n++;
            }
        }
        if (n == 0) {
            return EMPTY;
        }
        return new GtidSet(Arrays.copyOf(u, n), Arrays.copyOf(t, n), Arrays.copyOf(b, n));
    }

    private static <T> T[] insert(T[] a, int at, T value) {
        T[] r = Arrays.copyOf(a, a.length + 1);
        System.arraycopy(a, at, r, at + 1, a.length - at);
        r[at] = value;
        return r;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        GtidSetForm.requireCanonical(uuids, tags, bounds);
    }

    private Object readResolve() {
        return uuids.length == 0 ? EMPTY : this;
    }

    /**
     * Mutable builder for adding many GTIDs or ranges without copying per addition (ascending
     * additions per source are amortized O(1)). Not thread-safe; {@link #build()} may be called
     * repeatedly.
     */
    public static final class Builder {
        private final Map<GtidSource, Intervals.Appender> sources = new TreeMap<>();

        private Builder() {}

        public Builder add(Gtid gtid) {
            appender(gtid.uuid(), gtid.tag()).add(gtid.transactionId(), gtid.transactionId() + 1);
            return this;
        }

        /**
         * Adds the inclusive range {@code first..last} of transaction numbers of a source.
         *
         * @throws IllegalArgumentException for an invalid uuid or tag, a number out of range, or
         *     {@code first > last}
         */
        public Builder addRange(String uuid, String tag, long first, long last) {
            String u = Gtid.canonicalUuid(uuid);
            String t = Gtid.canonicalTag(tag);
            if (first < 1 || last > Gtid.MAX_TRANSACTION_ID || first > last) {
                throw new IllegalArgumentException(
                        "Invalid GTID range "
                                + first
                                + "-"
                                + last
                                + ": expected 1 <= first <= last <= "
                                + Gtid.MAX_TRANSACTION_ID);
            }
            appender(u, t).add(first, last + 1);
            return this;
        }

        public Builder addAll(GtidSet set) {
            for (int i = 0; i < set.uuids.length; i++) {
                Intervals.Appender a = appender(set.uuids[i], set.tags[i]);
                long[] b = set.bounds[i];
                for (int k = 0; k < b.length; k += 2) {
                    a.add(b[k], b[k + 1]);
                }
            }
            return this;
        }

        public GtidSet build() {
            int n = sources.size();
            if (n == 0) {
                return EMPTY;
            }
            String[] u = new String[n];
            String[] t = new String[n];
            long[][] b = new long[n][];
            int i = 0;
            for (Map.Entry<GtidSource, Intervals.Appender> e : sources.entrySet()) {
                u[i] = e.getKey().uuid();
                t[i] = e.getKey().tag();
                b[i] = e.getValue().toArray();
                i++;
            }
            return new GtidSet(u, t, b);
        }

        private Intervals.Appender appender(String uuid, String tag) {
            return sources.computeIfAbsent(
                    new GtidSource(uuid, tag), k -> new Intervals.Appender(8));
        }
    }
}
