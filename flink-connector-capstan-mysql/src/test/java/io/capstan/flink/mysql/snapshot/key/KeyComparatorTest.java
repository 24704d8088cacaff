package io.capstan.flink.mysql.snapshot.key;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Key order against independent models of MySQL's order for each supported kind. */
class KeyComparatorTest {

    private static int sign(int c) {
        return Integer.signum(c);
    }

    private static int cmp(KeyKind kind, Object a, Object b) {
        return sign(KeyComparator.compareValues(kind, a, b));
    }

    /** Boxes a long in the smallest integral class of the given "width" (as RowConverter might). */
    private static Object box(long v, int width) {
        if (width == 0 && v == (byte) v) {
            return (byte) v;
        }
        if (width <= 1 && v == (short) v) {
            return (short) v;
        }
        if (width <= 2 && v == (int) v) {
            return (int) v;
        }
        return v;
    }

    @Property(tries = 500)
    void integersOrderNumericallyWhateverTheirBoxedClass(
            @ForAll long a,
            @ForAll long b,
            @ForAll @IntRange(max = 3) int wa,
            @ForAll @IntRange(max = 3) int wb) {
        assertThat(cmp(KeyKind.INTEGER, box(a, wa), box(b, wb)))
                .isEqualTo(sign(Long.compare(a, b)));
    }

    @Provide
    Arbitrary<BigInteger> unsignedBigints() {
        return Arbitraries.bigIntegers()
                .between(BigInteger.ZERO, BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));
    }

    @Property(tries = 300)
    void bigintUnsignedOrdersByValue(
            @ForAll("unsignedBigints") BigInteger a, @ForAll("unsignedBigints") BigInteger b) {
        Object x = DecimalData.fromBigDecimal(new BigDecimal(a), 20, 0);
        Object y = DecimalData.fromBigDecimal(new BigDecimal(b), 20, 0);
        assertThat(cmp(KeyKind.INTEGER, x, y)).isEqualTo(sign(a.compareTo(b)));
    }

    @Property(tries = 300)
    void decimalsOrderByValue(
            @ForAll @IntRange(min = -99999999, max = 99999999) int ua,
            @ForAll @IntRange(min = -99999999, max = 99999999) int ub) {
        BigDecimal a = BigDecimal.valueOf(ua, 4);
        BigDecimal b = BigDecimal.valueOf(ub, 4);
        Object x = DecimalData.fromBigDecimal(a, 12, 4);
        Object y = DecimalData.fromBigDecimal(b, 12, 4);
        assertThat(cmp(KeyKind.DECIMAL, x, y)).isEqualTo(sign(a.compareTo(b)));
    }

    @Test
    void decimalsOfDifferentScaleCompareByValue() {
        Object a = DecimalData.fromBigDecimal(new BigDecimal("1.50"), 10, 2);
        Object b = DecimalData.fromBigDecimal(new BigDecimal("1.5"), 10, 1);
        assertThat(cmp(KeyKind.DECIMAL, a, b)).isZero();
    }

    @Property(tries = 300)
    void timeOrdersByMicrosecondsInEitherCarrier(
            @ForAll @IntRange(min = -500 * 3600, max = 500 * 3600) int sa, // int millis range
            @ForAll @IntRange(max = 999) int ma,
            @ForAll @IntRange(min = -838 * 3600, max = 838 * 3600) int sb,
            @ForAll @IntRange(max = 999_999) int mb) {
        long microsA = sa * 1_000_000L + ma * 1000L;
        long microsB = sb * 1_000_000L + mb;
        Object millisA = (int) (microsA / 1000); // Flink TIME: int milliseconds
        assertThat(cmp(KeyKind.TIME, millisA, microsB))
                .isEqualTo(sign(Long.compare(microsA, microsB)));
        assertThat(cmp(KeyKind.TIME, microsA, microsB))
                .isEqualTo(sign(Long.compare(microsA, microsB)));
    }

    @Provide
    Arbitrary<LocalDateTime> datetimes() {
        return Combinators.combine(
                        Arbitraries.longs().between(-62135596800L, 253402300799L),
                        Arbitraries.integers().between(0, 999_999))
                .as((s, micros) -> LocalDateTime.ofEpochSecond(s, micros * 1000, ZoneOffset.UTC));
    }

    @Property(tries = 300)
    void datetimesOrderChronologically(
            @ForAll("datetimes") LocalDateTime a, @ForAll("datetimes") LocalDateTime b) {
        Object x = TimestampData.fromLocalDateTime(a);
        Object y = TimestampData.fromLocalDateTime(b);
        assertThat(cmp(KeyKind.DATETIME, x, y)).isEqualTo(sign(a.compareTo(b)));
        assertThat(cmp(KeyKind.TIMESTAMP, x, y)).isEqualTo(sign(a.compareTo(b)));
    }

    /** Model: bytes as chars 0..255, compared as strings (a prefix sorts first). */
    private static String chars(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append((char) (x & 0xff));
        }
        return sb.toString();
    }

    @Property(tries = 500)
    void varbinaryOrdersUnsignedBytewise(
            @ForAll @Size(max = 6) byte[] a, @ForAll @Size(max = 6) byte[] b) {
        assertThat(cmp(KeyKind.VARBINARY, a, b)).isEqualTo(sign(chars(a).compareTo(chars(b))));
    }

    @Property(tries = 500)
    void binaryIgnoresTrailingZeroPadding(
            @ForAll @Size(max = 6) byte[] a,
            @ForAll @Size(max = 6) byte[] b,
            @ForAll @IntRange(max = 3) int padA) {
        byte[] padded = java.util.Arrays.copyOf(a, a.length + padA);
        String ma = chars(java.util.Arrays.copyOf(a, 9));
        String mb = chars(java.util.Arrays.copyOf(b, 9));
        assertThat(cmp(KeyKind.BINARY, padded, b)).isEqualTo(sign(ma.compareTo(mb)));
    }

    @Property(tries = 500)
    void bitsOrderAsUnsignedNumbers(
            @ForAll @Size(min = 1, max = 8) byte[] a, @ForAll @Size(min = 1, max = 8) byte[] b) {
        assertThat(cmp(KeyKind.BIT, a, b))
                .isEqualTo(sign(new BigInteger(1, a).compareTo(new BigInteger(1, b))));
    }

    private static StringData str(String s) {
        return StringData.fromString(s);
    }

    @Test
    void padSpaceStringsOrderByCodePointAndIgnoreTrailingSpaces() {
        assertThat(cmp(KeyKind.STRING_PAD_SPACE, str("a"), str("a  "))).isZero();
        assertThat(cmp(KeyKind.STRING_PAD_SPACE, str("a\t"), str("a")))
                .as("a tab sorts below the padding space")
                .isEqualTo(-1);
        assertThat(cmp(KeyKind.STRING_PAD_SPACE, str("a"), str("ab"))).isEqualTo(-1);
        assertThat(cmp(KeyKind.STRING_PAD_SPACE, str("B"), str("a")))
                .as("binary: case matters")
                .isEqualTo(-1);
        assertThat(cmp(KeyKind.STRING_PAD_SPACE, str("z"), str("é"))).isEqualTo(-1);
        assertThat(cmp(KeyKind.STRING_PAD_SPACE, str("\uFFFD"), str("\uD83D\uDE00")))
                .as("supplementary last")
                .isEqualTo(-1);
        // Binary strings (Flink's own form) compare alike whether built from text or bytes.
        assertThat(
                        cmp(
                                KeyKind.STRING_PAD_SPACE,
                                StringData.fromBytes("é".getBytes(StandardCharsets.UTF_8)),
                                str("é")))
                .isZero();
    }

    @Test
    void bit1MayTravelAsBoolean() {
        assertThat(cmp(KeyKind.BIT, false, true)).isEqualTo(-1);
        assertThat(cmp(KeyKind.BIT, true, new byte[] {1})).isZero();
    }

    @Property(tries = 500)
    void compositeKeysOrderLexicographically(
            @ForAll @IntRange(min = -3, max = 3) int a1,
            @ForAll @Size(max = 2) byte[] a2,
            @ForAll @IntRange(min = -3, max = 3) int b1,
            @ForAll @Size(max = 2) byte[] b2) {
        KeyComparator order = KeyComparator.of(TestKeys.of(KeyKind.INTEGER, KeyKind.VARBINARY));
        int model = a1 != b1 ? Integer.compare(a1, b1) : chars(a2).compareTo(chars(b2));
        assertThat(sign(order.compare(KeyTuple.of(a1, a2), KeyTuple.of(b1, b2))))
                .isEqualTo(sign(model));
    }

    @Property(tries = 300)
    void isATotalOrder(
            @ForAll @IntRange(min = -2, max = 2) int a,
            @ForAll @IntRange(min = -2, max = 2) int b,
            @ForAll @IntRange(min = -2, max = 2) int c,
            @ForAll @IntRange(min = -2, max = 2) int d,
            @ForAll @IntRange(min = -2, max = 2) int e,
            @ForAll @IntRange(min = -2, max = 2) int f) {
        KeyComparator order = KeyComparator.of(TestKeys.of(KeyKind.INTEGER, KeyKind.INTEGER));
        List<KeyTuple> t = List.of(KeyTuple.of(a, b), KeyTuple.of(c, d), KeyTuple.of(e, f));
        for (KeyTuple x : t) {
            for (KeyTuple y : t) {
                assertThat(sign(order.compare(x, y))).isEqualTo(-sign(order.compare(y, x)));
                for (KeyTuple z : t) {
                    if (order.compare(x, y) <= 0 && order.compare(y, z) <= 0) {
                        assertThat(order.compare(x, z)).isLessThanOrEqualTo(0);
                    }
                }
            }
        }
    }

    @Test
    void toStringShowsNoValue() {
        assertThat(KeyTuple.of(123456789L, "MARKER".getBytes()).toString())
                .doesNotContain("123456789")
                .doesNotContain("MARKER")
                .isEqualTo("KeyTuple{arity=2}");
    }
}
