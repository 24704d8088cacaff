package io.capstan.flink.mysql.convert;

import com.github.shyiko.mysql.binlog.event.deserialization.AbstractRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BinlogCells#newDecimal} against the binlog library's own decoding ({@code asBigDecimal},
 * which the library used for every DECIMAL cell before), on images written by {@link DecimalBytes}.
 */
class BinlogDecimalCellsTest {

    private static final byte SENTINEL = 0x5A;

    /** One DECIMAL(precision, scale) cell: sign and unscaled magnitude. */
    record Cell(int precision, int scale, BigInteger magnitude, boolean negative) {
        int meta() {
            return scale << 8 | precision;
        }

        BigDecimal value() {
            BigDecimal v = new BigDecimal(magnitude, scale);
            return negative ? v.negate() : v;
        }
    }

    @Property(tries = 3000)
    void decodesExactlyAsTheLibrary(@ForAll("cells") Cell cell) throws IOException {
        byte[] image =
                DecimalBytes.encode(cell.magnitude, cell.negative, cell.precision, cell.scale);
        // asBigDecimal flips bits of its argument in place: give it a copy.
        BigDecimal library =
                AbstractRowsEventDataDeserializer.asBigDecimal(
                        cell.precision, cell.scale, image.clone());
        assertThat(library).isEqualTo(cell.value()); // the test encoder is right

        byte[] followed = Arrays.copyOf(image, image.length + 1);
        followed[image.length] = SENTINEL;
        ByteArrayInputStream in = new ByteArrayInputStream(followed);
        Serializable decoded = BinlogCells.newDecimal(cell.meta(), in);

        assertThat(in.read()).as("reads exactly the cell's bytes").isEqualTo(SENTINEL);
        if (cell.precision <= DecimalText.MAX_COMPACT_PRECISION) {
            assertThat(decoded).isInstanceOf(UnscaledDecimal.class);
            UnscaledDecimal compact = (UnscaledDecimal) decoded;
            assertThat(compact.scale()).isEqualTo(cell.scale);
            // same value and same scale: BigDecimal.equals compares both
            assertThat(compact.toBigDecimal()).isEqualTo(library);
        } else {
            assertThat(decoded).isEqualTo(library);
        }
    }

    @Provide
    Arbitrary<Cell> cells() {
        Arbitrary<Integer> precisions =
                Arbitraries.oneOf(
                        Arbitraries.integers().between(1, DecimalText.MAX_COMPACT_PRECISION),
                        Arbitraries.integers().between(1, 65));
        return precisions.flatMap(
                p ->
                        Combinators.combine(
                                        Arbitraries.integers().between(0, Math.min(30, p)),
                                        magnitudes(p),
                                        Arbitraries.of(true, false))
                                .as((s, m, negative) -> new Cell(p, s, m, negative)));
    }

    /** Below 10^precision: 0, the maximum, and values of every digit count (leading zeros). */
    private static Arbitrary<BigInteger> magnitudes(int precision) {
        BigInteger max = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
        Arbitrary<BigInteger> anyDigits =
                Arbitraries.integers()
                        .between(1, precision)
                        .flatMap(
                                k ->
                                        Arbitraries.bigIntegers()
                                                .between(
                                                        BigInteger.ZERO,
                                                        BigInteger.TEN
                                                                .pow(k)
                                                                .subtract(BigInteger.ONE)));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, Arbitraries.just(BigInteger.ZERO)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(max)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(BigInteger.ONE)),
                net.jqwik.api.Tuple.of(8, anyDigits));
    }

    @Test
    void examplesAtTheGroupBoundaries() throws IOException {
        // DECIMAL(18,9): one full group each side; -0.000000001 has an all-zero integer group.
        assertThat(decode(18, 9, "-0.000000001")).isEqualTo(new UnscaledDecimal(-1, 9));
        assertThat(decode(18, 9, "999999999.999999999"))
                .isEqualTo(new UnscaledDecimal(999_999_999_999_999_999L, 9));
        assertThat(decode(18, 0, "-999999999999999999"))
                .isEqualTo(new UnscaledDecimal(-999_999_999_999_999_999L, 0));
        assertThat(decode(12, 2, "-1234.56")).isEqualTo(new UnscaledDecimal(-123456, 2));
        assertThat(decode(5, 5, "0.12345")).isEqualTo(new UnscaledDecimal(12345, 5));
        assertThat(decode(1, 0, "-7")).isEqualTo(new UnscaledDecimal(-7, 0));
        assertThat(decode(19, 0, "-1")).isEqualTo(new BigDecimal("-1"));
        assertThat(decode(65, 30, "-0.000000000000000000000000000001"))
                .isEqualTo(new BigDecimal("-0.000000000000000000000000000001"));
        assertThat(decode(30, 30, "0.123456789012345678901234567890"))
                .isEqualTo(new BigDecimal("0.123456789012345678901234567890"));
    }

    @Test
    void negativeZeroIsZero() throws IOException {
        byte[] image = DecimalBytes.encode(BigInteger.ZERO, true, 10, 2);
        assertThat(BinlogCells.newDecimal(2 << 8 | 10, new ByteArrayInputStream(image)))
                .isEqualTo(new UnscaledDecimal(0, 2));
    }

    @Test
    void toStringCarriesNoValue() {
        assertThat(new UnscaledDecimal(424242, 2).toString()).doesNotContain("4242");
    }

    private static Serializable decode(int precision, int scale, String text) throws IOException {
        BigDecimal v = new BigDecimal(text);
        byte[] image =
                DecimalBytes.encode(v.unscaledValue().abs(), v.signum() < 0, precision, scale);
        return BinlogCells.newDecimal(scale << 8 | precision, new ByteArrayInputStream(image));
    }
}
