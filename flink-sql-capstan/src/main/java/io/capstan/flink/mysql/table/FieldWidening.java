package io.capstan.flink.mysql.table;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

import java.io.Serializable;
import java.math.BigDecimal;

/**
 * Converts one internal value (Flink's {@code RowData} representation) of a MySQL column's mapped
 * type to the declared type, for the widenings {@link DeclaredTypeRule} accepts. Built once per
 * column; {@link #IDENTITY} when the representation is the same (strings, bytes, timestamps share
 * theirs across lengths and precisions).
 */
@FunctionalInterface
interface FieldWidening extends Serializable {

    FieldWidening IDENTITY = value -> value;

    /** Converts a non-null internal value. */
    Object widen(Object value);

    /** The conversion for an accepted pair; fails for a pair the rule refuses. */
    static FieldWidening between(LogicalType mapped, LogicalType declared) {
        if (!DeclaredTypeRule.isLosslessWideningIgnoringLength(mapped, declared)) {
            throw new IllegalArgumentException(
                    "not a lossless widening: "
                            + mapped.asSummaryString()
                            + " to "
                            + declared.asSummaryString());
        }
        LogicalTypeRoot from = mapped.getTypeRoot();
        LogicalTypeRoot to = declared.getTypeRoot();
        if (from == to && from != LogicalTypeRoot.DECIMAL) {
            return IDENTITY;
        }
        switch (to) {
            case SMALLINT:
                return value -> ((Number) value).shortValue();
            case INTEGER:
                return value -> ((Number) value).intValue();
            case BIGINT:
                return value -> ((Number) value).longValue();
            case DOUBLE:
                return value -> ((Float) value).doubleValue();
            case DECIMAL:
                DecimalType target = (DecimalType) declared;
                int precision = target.getPrecision();
                int scale = target.getScale();
                if (from == LogicalTypeRoot.DECIMAL) {
                    DecimalType source = (DecimalType) mapped;
                    if (source.getPrecision() == precision && source.getScale() == scale) {
                        return IDENTITY;
                    }
                    return value ->
                            DecimalData.fromBigDecimal(
                                    ((DecimalData) value).toBigDecimal(), precision, scale);
                }
                return value ->
                        DecimalData.fromBigDecimal(
                                BigDecimal.valueOf(((Number) value).longValue()), precision, scale);
            default:
                // CHAR->VARCHAR, BINARY->VARBINARY, longer lengths, higher time precisions:
                // same internal representation.
                return IDENTITY;
        }
    }
}
