package io.capstan.flink.mysql.gtid;

import java.util.Arrays;

/**
 * Algebra on the transaction numbers of one source, stored as a flat sorted {@code long[]} of
 * half-open bounds {@code [s0, e0, s1, e1, ...]} meaning {@code s0 <= n < e0 or s1 <= n < e1 ...}.
 * Canonical arrays are strictly increasing ({@code e_i < s_i+1}: adjacent ranges are merged), so
 * equal sets have equal arrays. Arrays are never mutated once returned; an empty result is a
 * zero-length array.
 */
final class Intervals {

    static final long[] EMPTY = new long[0];

    private Intervals() {}

    static long[] single(long n) {
        return new long[] {n, n + 1};
    }

    /**
     * Binary search: in a strictly increasing bounds array, n is inside iff it lands in an even
     * slot.
     */
    static boolean contains(long[] bounds, long n) {
        int i = Arrays.binarySearch(bounds, n);
        return i >= 0 ? (i & 1) == 0 : ((-i - 1) & 1) == 1;
    }

    /**
     * The bounds with n added, or the same array when n is already in it. Copies only this array.
     */
    static long[] add(long[] b, long n) {
        int len = b.length;
        // Common case first: the next transaction number after the last range.
        if (len > 0 && b[len - 1] == n) {
            long[] r = b.clone();
            r[len - 1] = n + 1;
            return r;
        }
        int i = Arrays.binarySearch(b, n);
        int slot = i >= 0 ? i + 1 : -i - 1; // index of the first bound > n
        if ((slot & 1) == 1) {
            return b; // the first bound above n is an end: n is already present
        }
        // n is in a gap: between end b[slot-1] (if any, <= n) and start b[slot] (if any, > n).
        boolean touchesPrev = slot > 0 && b[slot - 1] == n;
        boolean touchesNext = slot < len && b[slot] == n + 1;
        if (touchesPrev && touchesNext) { // fills the gap: drop end slot-1 and start slot
            long[] r = new long[len - 2];
            System.arraycopy(b, 0, r, 0, slot - 1);
            System.arraycopy(b, slot + 1, r, slot - 1, len - slot - 1);
            return r;
        }
        if (touchesPrev) {
            long[] r = b.clone();
            r[slot - 1] = n + 1;
            return r;
        }
        if (touchesNext) {
            long[] r = b.clone();
            r[slot] = n;
            return r;
        }
        long[] r = new long[len + 2];
        System.arraycopy(b, 0, r, 0, slot);
        r[slot] = n;
        r[slot + 1] = n + 1;
        System.arraycopy(b, slot, r, slot + 2, len - slot);
        return r;
    }

    static long[] union(long[] a, long[] b) {
        if (a.length == 0) {
            return b;
        }
        if (b.length == 0) {
            return a;
        }
        Appender out = new Appender(a.length + b.length);
        int i = 0;
        int j = 0;
        while (i < a.length || j < b.length) {
            if (j >= b.length || (i < a.length && a[i] <= b[j])) {
                out.add(a[i], a[i + 1]);
                i += 2;
            } else {
                out.add(b[j], b[j + 1]);
                j += 2;
            }
        }
        return out.toArray();
    }

    static long[] intersect(long[] a, long[] b) {
        Appender out = new Appender(Math.min(a.length, b.length) * 2);
        int i = 0;
        int j = 0;
        while (i < a.length && j < b.length) {
            long lo = Math.max(a[i], b[j]);
            long hi = Math.min(a[i + 1], b[j + 1]);
            if (lo < hi) {
                out.add(lo, hi);
            }
            if (a[i + 1] < b[j + 1]) {
                i += 2;
            } else {
                j += 2;
            }
        }
        return out.toArray();
    }

    /** a minus b. */
    static long[] subtract(long[] a, long[] b) {
        if (a.length == 0 || b.length == 0) {
            return a;
        }
        Appender out = new Appender(a.length + b.length);
        int j = 0;
        for (int i = 0; i < a.length; i += 2) {
            long s = a[i];
            long e = a[i + 1];
            while (j < b.length && b[j + 1] <= s) {
                j += 2; // b range entirely before what is left of a's range
            }
            int k = j;
            while (s < e && k < b.length && b[k] < e) {
                if (b[k] > s) {
                    out.add(s, b[k]);
                }
                s = Math.max(s, b[k + 1]);
                k += 2;
            }
            if (s < e) {
                out.add(s, e);
            }
        }
        return out.toArray();
    }

    /** Whether every number of sub is in sup. */
    static boolean containsAll(long[] sup, long[] sub) {
        for (int j = 0; j < sub.length; j += 2) {
            int i = Arrays.binarySearch(sup, sub[j]);
            int start = i >= 0 ? i : -i - 2; // index of the start bound at or below sub[j]
            if (start < 0 || (start & 1) == 1 || sup[start + 1] < sub[j + 1]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Builds canonical bounds from ranges added in any order (fast when added in ascending order).
     */
    static final class Appender {
        private long[] buf;
        private int size;

        Appender(int capacity) {
            buf = new long[Math.max(capacity, 2)];
        }

        /** Adds [s, e); merges into the last range when it overlaps or touches it. */
        void add(long s, long e) {
            if (size > 0 && s <= buf[size - 1]) {
                if (s >= buf[size - 2]) {
                    buf[size - 1] = Math.max(buf[size - 1], e);
                    return;
                }
                // Out of order: fall back to a general union (rare; only from the Builder).
                long[] merged = union(toArray(), new long[] {s, e});
                buf = merged.length >= 2 ? merged : new long[2];
                size = merged.length;
                return;
            }
            if (size == buf.length) {
                buf = Arrays.copyOf(buf, size * 2);
            }
            buf[size++] = s;
            buf[size++] = e;
        }

        boolean isEmpty() {
            return size == 0;
        }

        long[] toArray() {
            return size == 0 ? EMPTY : Arrays.copyOf(buf, size);
        }
    }

    /** Appends MySQL's text for the ranges: {@code 1-5:7:9-12}. */
    static void appendText(StringBuilder sb, long[] b) {
        for (int i = 0; i < b.length; i += 2) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(b[i]);
            if (b[i + 1] - 1 != b[i]) {
                sb.append('-').append(b[i + 1] - 1);
            }
        }
    }

    /**
     * Whether the array is canonical: non-empty, even length, strictly increasing, within range.
     */
    static boolean isCanonical(long[] b) {
        if (b == null || b.length == 0 || (b.length & 1) == 1 || b[0] < 1) {
            return false;
        }
        for (int i = 1; i < b.length; i++) {
            if (b[i] <= b[i - 1]) {
                return false;
            }
        }
        return b[b.length - 1] <= Gtid.MAX_TRANSACTION_ID + 1;
    }
}
