package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.testing.FlinkLines;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;

import static org.assertj.core.api.Assertions.assertThat;

/** The fast double printer equals the exact reference search for every kind of double. */
@Tag(FlinkLines.NEUTRAL)
class MySqlJsonTextDoubleTest {

    @Property(tries = 20_000)
    void anyBitPattern(@ForAll long bits) {
        double d = Double.longBitsToDouble(bits);
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return; // JSON cannot hold them
        }
        assertSameAsReference(d);
    }

    @Property(tries = 5_000)
    void subnormals(@ForAll("subnormalBits") long bits) {
        assertSameAsReference(Double.longBitsToDouble(bits));
    }

    @Property(tries = 5_000)
    void integers(@ForAll long v) {
        assertSameAsReference((double) v);
        assertSameAsReference((double) (v % 1_000_000));
    }

    @Property(tries = 5_000)
    void powersOfTenAndNeighbours(
            @ForAll("decimalExponents") int exp, @ForAll("smallMantissas") int m) {
        double d = Double.parseDouble(m + "e" + exp);
        if (Double.isInfinite(d)) {
            return;
        }
        assertSameAsReference(d);
        assertSameAsReference(Math.nextUp(d));
        assertSameAsReference(Math.nextDown(d));
    }

    @Property(tries = 10_000)
    void shortDecimals(@ForAll("shortDecimalText") String text) {
        assertSameAsReference(Double.parseDouble(text));
    }

    @Property(tries = 2_000)
    void everyPowerOfTwo(@ForAll("binaryExponents") int exp) {
        double d = Math.scalb(1.0, exp);
        assertSameAsReference(d);
        assertSameAsReference(Math.nextUp(d));
        assertSameAsReference(Math.nextDown(d));
    }

    @Provide
    Arbitrary<Long> subnormalBits() {
        return Arbitraries.longs().between(1, (1L << 52) - 1);
    }

    @Provide
    Arbitrary<Integer> decimalExponents() {
        return Arbitraries.integers().between(-325, 308);
    }

    @Provide
    Arbitrary<Integer> smallMantissas() {
        return Arbitraries.integers().between(1, 99_999);
    }

    @Provide
    Arbitrary<Integer> binaryExponents() {
        return Arbitraries.integers().between(-1074, 1023);
    }

    @Provide
    Arbitrary<String> shortDecimalText() {
        // like prices and weights: a few digits with a few decimals
        return Arbitraries.longs()
                .between(0, 999_999_999_999L)
                .flatMap(
                        v ->
                                Arbitraries.integers()
                                        .between(0, 17)
                                        .map(
                                                scale ->
                                                        new java.math.BigDecimal(
                                                                        java.math.BigInteger
                                                                                .valueOf(v),
                                                                        scale)
                                                                .toPlainString()));
    }

    private static void assertSameAsReference(double d) {
        StringBuilder sb = new StringBuilder("x");
        MySqlDoubleText.append(sb, d);
        assertThat(sb.substring(1))
                .as("bits %x", Double.doubleToRawLongBits(d))
                .isEqualTo(MySqlDoubleTextReference.print(d));
    }
}
