package io.capstan.flink.mysql.snapshot.key;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.StringData;

import java.util.Arrays;
import java.util.Objects;

/**
 * The value of a collated CHAR/VARCHAR key column in a {@link KeyTuple}: the text, bound as a
 * parameter when the server compares (chunk reads, boundary queries), and its weight in the
 * column's collation as the server computed it, which is all {@link KeyComparator} compares. Two
 * values the collation holds equal ({@code 'abc'} and {@code 'ABC'} under {@code _ci}) have equal
 * weights and so are one key. By the no-values rule, {@link #toString()} shows no value.
 */
@Internal
public final class CollatedString {
    private final StringData text;
    private final byte[] weight;

    public CollatedString(StringData text, byte[] weight) {
        this.text = Objects.requireNonNull(text, "text");
        this.weight = Objects.requireNonNull(weight, "weight");
    }

    public StringData text() {
        return text;
    }

    /** The server's weight; shared, never to be modified. */
    byte[] weight() {
        return weight;
    }

    /** Structural (text and weight), for tests and codec round trips; order is the comparator's. */
    @Override
    public boolean equals(Object o) {
        return o instanceof CollatedString c
                && text.equals(c.text)
                && Arrays.equals(weight, c.weight);
    }

    @Override
    public int hashCode() {
        return 31 * text.hashCode() + Arrays.hashCode(weight);
    }

    @Override
    public String toString() {
        return "CollatedString{weightBytes=" + weight.length + "}";
    }
}
