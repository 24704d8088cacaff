package io.capstan.flink.mysql.snapshot.key;

import org.apache.flink.annotation.Internal;

import java.util.Arrays;

/**
 * The value of a chunk key: one Flink internal value per key column, in key order (Byte, Short,
 * Integer, Long, DecimalData, TimestampData, byte[], Boolean). Immutable by convention: the values
 * are shared with the row they were extracted from and must not be mutated.
 *
 * <p>Order and equality are those of a {@link KeyComparator} for the table's {@link ChunkKey};
 * {@link #equals} here is structural and only meant for tests and codec round trips. By the
 * no-values rule, {@link #toString()} shows the arity only, never a value.
 */
@Internal
public final class KeyTuple {
    private final Object[] values;

    private KeyTuple(Object[] values) {
        this.values = values;
    }

    public static KeyTuple of(Object... values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("a key has at least one column");
        }
        for (Object v : values) {
            if (v == null) {
                throw new IllegalArgumentException("a key value is never NULL");
            }
        }
        return new KeyTuple(values.clone());
    }

    /** Wraps without copying; the caller hands over the array. */
    static KeyTuple wrap(Object[] values) {
        return new KeyTuple(values);
    }

    public int arity() {
        return values.length;
    }

    public Object get(int i) {
        return values[i];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyTuple && Arrays.deepEquals(values, ((KeyTuple) o).values);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        return "KeyTuple{arity=" + values.length + "}";
    }
}
