package io.capstan.flink.mysql.convert;

import java.io.Serializable;
import java.math.BigDecimal;

/**
 * A binlog DECIMAL cell of precision at most 18, as {@link BinlogCells#newDecimal} decodes it: the
 * unscaled value and the scale the table map gives the column. One object per cell and no {@link
 * BigDecimal}: {@link NumericConverters.Decimal} turns it into a compact {@code DecimalData}
 * directly when the scale is the converter's.
 *
 * <p>{@link #toString()} carries no value (the no-values rule).
 */
record UnscaledDecimal(long unscaled, int scale) implements Serializable {

    /** The exact value, as the binlog library would have decoded it (same value, same scale). */
    BigDecimal toBigDecimal() {
        return BigDecimal.valueOf(unscaled, scale);
    }

    @Override
    public String toString() {
        return "UnscaledDecimal{scale=" + scale + "}";
    }
}
