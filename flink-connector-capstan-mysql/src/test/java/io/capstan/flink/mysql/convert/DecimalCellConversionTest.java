package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.table.data.DecimalData;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link NumericConverters.Decimal#fromBinlog} on an {@link UnscaledDecimal} cell gives exactly
 * what it gives on the library's {@link BigDecimal} of the same cell, for DecimalData and STRING.
 */
class DecimalCellConversionTest {

    /** A cell of DECIMAL(cellPrecision, cellScale) read by a converter of (precision, scale). */
    record Case(int precision, int scale, long unscaled, int cellScale, boolean asString) {}

    @Property(tries = 2000)
    void compactCellConvertsAsItsBigDecimal(@ForAll("cases") Case c) {
        NumericConverters.Decimal converter =
                new NumericConverters.Decimal(c.precision, c.scale, c.asString);
        UnscaledDecimal cell = new UnscaledDecimal(c.unscaled, c.cellScale);
        Object expected;
        try {
            expected = converter.fromBinlog(BigDecimal.valueOf(c.unscaled, c.cellScale));
        } catch (ArithmeticException e) {
            assertThatThrownBy(() -> converter.fromBinlog(cell))
                    .isInstanceOf(ArithmeticException.class)
                    .hasMessage(e.getMessage());
            return;
        }
        Object actual = converter.fromBinlog(cell);
        assertThat(actual).isEqualTo(expected);
        if (actual instanceof DecimalData) {
            DecimalData d = (DecimalData) actual;
            assertThat(d.precision()).isEqualTo(c.precision);
            assertThat(d.scale()).isEqualTo(c.scale);
            assertThat(d.toBigDecimal()).isEqualTo(((DecimalData) expected).toBigDecimal());
        }
    }

    @Provide
    Arbitrary<Case> cases() {
        // Mostly the cell's own type; sometimes another scale or precision (a changed table), or a
        // converter reading the column as STRING.
        return Arbitraries.integers()
                .between(1, DecimalText.MAX_COMPACT_PRECISION)
                .flatMap(
                        p ->
                                Combinators.combine(
                                                Arbitraries.integers().between(0, p),
                                                Arbitraries.longs()
                                                        .between(
                                                                -DecimalText.POWERS_OF_TEN[p] + 1,
                                                                DecimalText.POWERS_OF_TEN[p] - 1),
                                                Arbitraries.integers().between(-2, 2),
                                                Arbitraries.integers().between(-2, 2),
                                                Arbitraries.of(false, false, false, true))
                                        .as(
                                                (s, u, dp, ds, asString) -> {
                                                    boolean same = (dp == 0) || (ds == 0);
                                                    int convP = same ? p : clamp(p + dp, 1, 40);
                                                    int convS = same ? s : clamp(s + ds, 0, convP);
                                                    return new Case(convP, convS, u, s, asString);
                                                }));
    }

    private static int clamp(int v, int min, int max) {
        return Math.max(min, Math.min(max, v));
    }

    @Test
    void fastPathGivesTheCompactDecimal() {
        NumericConverters.Decimal converter = new NumericConverters.Decimal(12, 2, false);
        assertThat(converter.fromBinlog(new UnscaledDecimal(-123456, 2)))
                .isEqualTo(DecimalData.fromUnscaledLong(-123456, 12, 2));
        assertThat(converter.fromBinlog(new UnscaledDecimal(-12345, 1)))
                .isEqualTo(DecimalData.fromUnscaledLong(-123450, 12, 2));
    }

    @Test
    void moreDigitsThanDeclaredThrowsWithoutTheValue() {
        NumericConverters.Decimal converter = new NumericConverters.Decimal(4, 2, false);
        assertThatThrownBy(() -> converter.fromBinlog(new UnscaledDecimal(987654, 2)))
                .isInstanceOf(ArithmeticException.class)
                .hasMessage("DECIMAL value exceeds the declared precision");
        assertThatThrownBy(() -> converter.fromBinlog(new UnscaledDecimal(-10000, 2)))
                .isInstanceOf(ArithmeticException.class)
                .hasMessageNotContaining("10000")
                .hasMessageNotContaining("100.00");

        TableId t = TableId.of("db", "t");
        ColumnSchema column =
                ColumnSchema.builder("d", MySqlType.DECIMAL).precision(4).scale(2).build(t);
        RowConverter rows = RowConverter.of(new TableSchema(t, List.of(column), new int[0]));
        assertThatThrownBy(
                        () -> rows.fromBinlog(new Serializable[] {new UnscaledDecimal(987654, 2)}))
                .isInstanceOf(CapstanHaltException.class)
                .hasMessageNotContaining("987654")
                .hasMessageNotContaining("9876.54");
    }
}
