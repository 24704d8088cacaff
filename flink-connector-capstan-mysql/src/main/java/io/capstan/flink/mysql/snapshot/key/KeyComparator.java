package io.capstan.flink.mysql.snapshot.key;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;

/**
 * Orders key tuples exactly as MySQL orders the key's index: column by column, each column by its
 * {@link KeyKind}. Tuples of one table always have the key's arity.
 */
@Internal
public final class KeyComparator implements Comparator<KeyTuple>, Serializable {
    private static final long serialVersionUID = 1L;

    private final KeyKind[] kinds;
    private final KeyCollation[] collations; // of STRING_COLLATED columns, else null

    private KeyComparator(KeyKind[] kinds, KeyCollation[] collations) {
        this.kinds = kinds;
        this.collations = collations;
    }

    public static KeyComparator of(ChunkKey key) {
        return of(key.columns());
    }

    public static KeyComparator of(List<KeyColumn> columns) {
        KeyKind[] kinds = new KeyKind[columns.size()];
        KeyCollation[] collations = new KeyCollation[columns.size()];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = columns.get(i).kind();
            collations[i] = columns.get(i).collation();
        }
        return new KeyComparator(kinds, collations);
    }

    @Override
    public int compare(KeyTuple a, KeyTuple b) {
        if (a.arity() != kinds.length || b.arity() != kinds.length) {
            throw new IllegalArgumentException(
                    "key arity mismatch: expected " + kinds.length + " columns");
        }
        for (int i = 0; i < kinds.length; i++) {
            int c =
                    kinds[i] == KeyKind.STRING_COLLATED
                            ? collations[i].compareWeights(
                                    ((CollatedString) a.get(i)).weight(),
                                    ((CollatedString) b.get(i)).weight())
                            : compareValues(kinds[i], a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /**
     * Compares two non-null values of one key column of the given kind; not for {@link
     * KeyKind#STRING_COLLATED}, whose order needs the column's collation.
     */
    public static int compareValues(KeyKind kind, Object a, Object b) {
        switch (kind) {
            case INTEGER:
            case DECIMAL:
            case DATE:
            case YEAR:
                return compareNumbers(a, b);
            case TIME:
                return Long.compare(timeMicros(a), timeMicros(b));
            case DATETIME:
            case TIMESTAMP:
                return ((TimestampData) a).compareTo((TimestampData) b);
            case BINARY:
                return comparePadded((byte[]) a, (byte[]) b, 0);
            case VARBINARY:
                return compareUnsigned((byte[]) a, (byte[]) b);
            case BIT:
                return compareBits(a, b);
            case STRING_PAD_SPACE:
                return compareSpacePadded((BinaryStringData) a, (BinaryStringData) b);
            default:
                throw new IllegalStateException("unhandled key kind " + kind);
        }
    }

    private static int compareNumbers(Object a, Object b) {
        if (isIntegral(a) && isIntegral(b)) {
            return Long.compare(((Number) a).longValue(), ((Number) b).longValue());
        }
        return toBigDecimal(a).compareTo(toBigDecimal(b));
    }

    private static boolean isIntegral(Object v) {
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
    }

    private static BigDecimal toBigDecimal(Object v) {
        if (v instanceof DecimalData) {
            return ((DecimalData) v).toBigDecimal();
        }
        if (isIntegral(v)) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof BigDecimal) {
            return (BigDecimal) v;
        }
        throw new IllegalArgumentException("not a numeric key value: " + v.getClass().getName());
    }

    /**
     * TIME travels as Integer milliseconds (Flink TIME) or Long microseconds; compare in micros.
     */
    static long timeMicros(Object v) {
        if (v instanceof Integer) {
            return ((Integer) v) * 1000L;
        }
        if (v instanceof Long) {
            return (Long) v;
        }
        throw new IllegalArgumentException("not a TIME key value: " + v.getClass().getName());
    }

    /** Unsigned bytewise; a proper prefix sorts first (VARBINARY, and MySQL's binary strings). */
    static int compareUnsigned(byte[] a, byte[] b) {
        return java.util.Arrays.compareUnsigned(a, b);
    }

    /**
     * Unsigned bytewise with the shorter value extended by {@code pad} bytes. BINARY(n) pads with
     * 0x00 (values are stored padded to n bytes and the binlog may carry them stripped); PAD SPACE
     * collations pad with spaces. Either way trailing padding never decides the order.
     */
    static int comparePadded(byte[] a, byte[] b, int pad) {
        int n = Math.max(a.length, b.length);
        for (int i = 0; i < n; i++) {
            int x = i < a.length ? a[i] & 0xff : pad;
            int y = i < b.length ? b[i] & 0xff : pad;
            if (x != y) {
                return Integer.compare(x, y);
            }
        }
        return 0;
    }

    /**
     * {@link #comparePadded} with spaces over the UTF-8 bytes Flink holds, read in place: the
     * cursor gate compares keys per binlog row, so no byte copy per comparison.
     */
    static int compareSpacePadded(BinaryStringData a, BinaryStringData b) {
        a.ensureMaterialized();
        b.ensureMaterialized();
        int la = a.getSizeInBytes();
        int lb = b.getSizeInBytes();
        int n = Math.max(la, lb);
        for (int i = 0; i < n; i++) {
            int x = i < la ? a.byteAt(i) & 0xff : ' ';
            int y = i < lb ? b.byteAt(i) & 0xff : ' ';
            if (x != y) {
                return Integer.compare(x, y);
            }
        }
        return 0;
    }

    /** BIT(n) orders as an unsigned number: big-endian bytes of any length, or a Boolean. */
    static int compareBits(Object a, Object b) {
        byte[] x = bitBytes(a);
        byte[] y = bitBytes(b);
        int n = Math.max(x.length, y.length);
        for (int i = 0; i < n; i++) {
            int p = i - (n - x.length);
            int q = i - (n - y.length);
            int u = p >= 0 ? x[p] & 0xff : 0;
            int v = q >= 0 ? y[q] & 0xff : 0;
            if (u != v) {
                return Integer.compare(u, v);
            }
        }
        return 0;
    }

    private static byte[] bitBytes(Object v) {
        if (v instanceof Boolean) {
            return new byte[] {(byte) (((Boolean) v) ? 1 : 0)};
        }
        return (byte[]) v;
    }

    @Override
    public String toString() {
        return "KeyComparator" + java.util.Arrays.toString(kinds);
    }
}
