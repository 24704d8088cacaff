package io.capstan.flink.mysql.snapshot.key;

import io.capstan.flink.mysql.schema.MySqlCharsets;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The collation of a CHAR/VARCHAR chunk key column, and how to compare the sort keys ("weights")
 * the server computes for it with {@code WEIGHT_STRING}. The order of a collated key is never
 * computed in Java; only the server's weights are compared here, bytewise.
 *
 * <p>MySQL's {@code WEIGHT_STRING} does not strip trailing spaces, while a PAD SPACE collation
 * compares as if the shorter value were padded with spaces without end. So for PAD SPACE the
 * shorter weight is extended with the weight of one space, repeated ({@link #spaceWeight}, asked of
 * the server too); for NO PAD (the {@code _0900_} collations) a proper prefix sorts first.
 *
 * @param name the collation, e.g. {@code utf8mb4_0900_ai_ci}
 * @param charset its character set, e.g. {@code utf8mb4}
 * @param padSpace whether trailing spaces are insignificant (information_schema PAD_ATTRIBUTE)
 * @param spaceWeight the weight of one space in this collation (used only with PAD SPACE)
 */
@Internal
public record KeyCollation(String name, String charset, boolean padSpace, byte[] spaceWeight)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Collation and character set names are SQL text here: plain identifiers only. */
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9_]+");

    public KeyCollation {
        if (!isPlainName(Objects.requireNonNull(name, "name"))
                || !isPlainName(Objects.requireNonNull(charset, "charset"))) {
            throw new IllegalArgumentException("not a collation/charset name: " + name);
        }
        if (spaceWeight == null || spaceWeight.length == 0) {
            throw new IllegalArgumentException("collation " + name + " has no space weight");
        }
        spaceWeight = spaceWeight.clone();
    }

    /**
     * The SQL expression of the weight of {@code operand} (a {@code ?} or a column) in this
     * collation: converted to the column's character set first, so a parameter sent in the
     * connection's character set weighs exactly as the stored value.
     */
    public String weightOf(String operand) {
        return weightOf(charset, name, operand);
    }

    /** {@link #weightOf(String)} of a collation not known yet; both names must be plain. */
    public static String weightOf(String charset, String collation, String operand) {
        return "WEIGHT_STRING(" + collated(charset, collation, operand) + ")";
    }

    /** {@code operand} as a value of this collation, for predicates the server evaluates in it. */
    public String collated(String operand) {
        return collated(charset, name, operand);
    }

    private static String collated(String charset, String collation, String operand) {
        if (!isPlainName(charset) || !isPlainName(collation)) {
            throw new IllegalArgumentException("not a collation/charset name: " + collation);
        }
        return "CONVERT(" + operand + " USING " + charset + ") COLLATE " + collation;
    }

    /** Whether a collation or character set name is a plain identifier, safe in SQL text. */
    public static boolean isPlainName(String name) {
        return IDENTIFIER.matcher(name).matches();
    }

    /** Whether Java's text of a value in this character set is its exact text (no lossy decode). */
    public boolean decodesLosslessly() {
        return MySqlCharsets.decodesLosslessly(MySqlCharsets.canonical(charset));
    }

    /** Compares two weights of this collation as the server compares the values. */
    public int compareWeights(byte[] a, byte[] b) {
        if (!padSpace) {
            return Arrays.compareUnsigned(a, b);
        }
        int n = Math.min(a.length, b.length);
        int c = Arrays.compareUnsigned(a, 0, n, b, 0, n);
        if (c != 0) {
            return c;
        }
        // The longer one's rest against spaces without end.
        return a.length == b.length
                ? 0
                : a.length > b.length ? againstSpaces(a, n) : -againstSpaces(b, n);
    }

    private int againstSpaces(byte[] longer, int from) {
        int unit = spaceWeight.length;
        for (int i = from; i < longer.length; i++) {
            int x = longer[i] & 0xff;
            int y = spaceWeight[(i - from) % unit] & 0xff;
            if (x != y) {
                return Integer.compare(x, y);
            }
        }
        return 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyCollation k
                && name.equals(k.name)
                && charset.equals(k.charset)
                && padSpace == k.padSpace
                && Arrays.equals(spaceWeight, k.spaceWeight);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, charset, padSpace, Arrays.hashCode(spaceWeight));
    }

    @Override
    public String toString() {
        return name + (padSpace ? " PAD SPACE" : " NO PAD");
    }
}
