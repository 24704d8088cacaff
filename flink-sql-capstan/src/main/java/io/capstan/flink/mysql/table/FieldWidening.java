package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.schema.ColumnSchema;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.math.BigDecimal;

/**
 * Converts one internal value (Flink's {@code RowData} representation) of a MySQL column's mapped
 * type to the declared type, for the declarations {@link DeclaredTypeRule} accepts. Built once per
 * column; {@link #IDENTITY} when the representation is the same (strings, bytes, timestamps share
 * theirs across lengths and precisions).
 */
@FunctionalInterface
interface FieldWidening extends Serializable {

    FieldWidening IDENTITY = value -> value;

    /** Microseconds in a day: a Flink TIME is a time of day. */
    long MICROS_PER_DAY = 86_400_000_000L;

    /** MySQL's truth: 0 is false, any other value true. */
    FieldWidening TINYINT_AS_BOOLEAN = value -> ((Number) value).intValue() != 0;

    /**
     * Signed microseconds of a MySQL TIME to Flink's TIME (milliseconds of the day); a value that
     * is no time of day, or has digits below a millisecond, does not fit and is never wrapped or
     * cut.
     */
    FieldWidening TIME_AS_TIME =
            value -> {
                long micros = (Long) value;
                if (micros < 0 || micros >= MICROS_PER_DAY || micros % 1000 != 0) {
                    throw new DoesNotFit();
                }
                return (int) (micros / 1000);
            };

    /**
     * Converts a non-null internal value.
     *
     * @throws DoesNotFit when the declared type cannot hold this value
     */
    Object widen(Object value);

    /**
     * A value the declared type cannot hold. Carries no value (Rule 1): the caller names the
     * column.
     */
    final class DoesNotFit extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DoesNotFit() {
            super("the value does not fit the declared type", null, false, false);
        }
    }

    /** The conversion for an accepted pair of a column whose MySQL column is unknown. */
    static FieldWidening between(LogicalType mapped, LogicalType declared) {
        return between(null, mapped, declared);
    }

    /** The conversion for an accepted pair; fails for a pair the rule refuses. */
    static FieldWidening between(
            @Nullable ColumnSchema column, LogicalType mapped, LogicalType declared) {
        if (DeclaredTypeRule.isMySqlMeaning(column, declared)) {
            return declared.getTypeRoot() == LogicalTypeRoot.BOOLEAN
                    ? TINYINT_AS_BOOLEAN
                    : TIME_AS_TIME;
        }
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
