package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.convert.SpatialValueForm;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Arrays;

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
                    throw new DoesNotFit(
                            "is no time of day (a TIME of day is 00:00:00 to 23:59:59.999;"
                                    + " MySQL's TIME spans -838:59:59 to 838:59:59)",
                            "declare the column BIGINT (signed microseconds, every MySQL TIME"
                                    + " value)");
                }
                return (int) (micros / 1000);
            };

    /** A SET's comma-joined members (MySQL forbids commas in them) as an array, in order. */
    FieldWidening SET_AS_ARRAY =
            value -> {
                String joined = value.toString();
                if (joined.isEmpty()) {
                    return new GenericArrayData(new StringData[0]);
                }
                String[] members = joined.split(",", -1);
                StringData[] out = new StringData[members.length];
                for (int i = 0; i < members.length; i++) {
                    out[i] = StringData.fromString(members[i]);
                }
                return new GenericArrayData(out);
            };

    /** MySQL's JSON text without the space after {@code ,} and {@code :} (mysql-cdc's legacy). */
    FieldWidening LEGACY_JSON =
            value -> {
                byte[] text = ((StringData) value).toBytes();
                byte[] compact = LegacyJsonText.compact(text);
                return compact == text ? value : StringData.fromBytes(compact);
            };

    /**
     * A spatial value as the table source reads it (MySQL's own form: 4-byte little-endian SRID,
     * then standard WKB, {@link SpatialValueForm#MYSQL_INTERNAL}) as the JSON text mysql-cdc emits,
     * with the stored SRID.
     */
    FieldWidening SPATIAL_AS_MYSQL_CDC_TEXT =
            value -> {
                try {
                    return StringData.fromString(MySqlCdcGeometryText.ofMySqlValue((byte[]) value));
                } catch (IllegalArgumentException e) {
                    throw new DoesNotFit(
                            "is no well-formed WKB geometry", "declare the column BYTES");
                }
            };

    /**
     * A spatial value as the table source reads it (with MySQL's SRID prefix) as standard WKB, the
     * {@code BYTES} every other reader of the connector delivers (docs/types.md).
     */
    FieldWidening SPATIAL_AS_WKB =
            value -> {
                byte[] internal = (byte[]) value;
                if (internal.length < 4) {
                    throw new DoesNotFit(
                            "is shorter than MySQL's SRID prefix", "declare the column STRING");
                }
                return Arrays.copyOfRange(internal, 4, internal.length);
            };

    /** The wall clock of a MySQL TIMESTAMP (an instant) in {@code zone}. */
    static FieldWidening wallClockIn(ZoneId zone) {
        return value ->
                TimestampData.fromLocalDateTime(
                        LocalDateTime.ofInstant(((TimestampData) value).toInstant(), zone));
    }

    /**
     * A FLOAT or DOUBLE as {@code DECIMAL(precision, scale)}: the stored value's exact decimal
     * expansion rounded half-up to {@code scale}. A FLOAT arrives as the stored float on both paths
     * (docs/types.md); widening it to a double is exact.
     */
    static FieldWidening approximateAsDecimal(int precision, int scale) {
        return value -> {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new DoesNotFit(DECIMAL_LIMIT, DECIMAL_REMEDY);
            }
            DecimalData out =
                    DecimalData.fromBigDecimal(
                            new BigDecimal(d).setScale(scale, RoundingMode.HALF_UP),
                            precision,
                            scale);
            if (out == null) {
                throw new DoesNotFit(DECIMAL_LIMIT, DECIMAL_REMEDY);
            }
            return out;
        };
    }

    String DECIMAL_LIMIT = "has more integer digits than the declared precision allows";
    String DECIMAL_REMEDY = "declare a DECIMAL with more integer digits, or DOUBLE";

    /**
     * Converts a non-null internal value.
     *
     * @throws DoesNotFit when the declared type cannot hold this value
     */
    Object widen(Object value);

    /**
     * A value the declared type cannot hold. Carries no value (the no-values rule): the caller
     * names the column.
     */
    final class DoesNotFit extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final String limit;
        private final String remedy;

        /**
         * @param limit why the declared type cannot hold the value, without the value
         * @param remedy what to declare instead
         */
        DoesNotFit(String limit, String remedy) {
            super("the value does not fit the declared type", null, false, false);
            this.limit = limit;
            this.remedy = remedy;
        }

        String limit() {
            return limit;
        }

        String remedy() {
            return remedy;
        }
    }

    /** The conversion for an accepted pair of a column whose MySQL column is unknown. */
    static FieldWidening between(LogicalType mapped, LogicalType declared) {
        return between(null, mapped, declared, DeclaredValueSettings.AS_MAPPED);
    }

    /** As {@link #between(ColumnSchema, LogicalType, LogicalType, DeclaredValueSettings)}. */
    static FieldWidening between(
            @Nullable ColumnSchema column, LogicalType mapped, LogicalType declared) {
        return between(column, mapped, declared, DeclaredValueSettings.AS_MAPPED);
    }

    /**
     * The conversion for an accepted pair; fails for a pair the rule refuses. Spatial values come
     * in {@link SpatialValueForm#MYSQL_INTERNAL}, as the table source asks the connector for them.
     */
    static FieldWidening between(
            @Nullable ColumnSchema column,
            LogicalType mapped,
            LogicalType declared,
            DeclaredValueSettings settings) {
        if (settings.readsBinaryAsText(column, declared)) {
            return settings.binaryText().encoder();
        }
        if (DeclaredTypeRule.isMySqlMeaning(column, declared)) {
            return mySqlMeaning(column, declared, settings);
        }
        if (CheckedNarrowing.accepts(column, mapped, declared)) {
            return CheckedNarrowing.conversion(column, mapped, declared);
        }
        if (!DeclaredTypeRule.isLosslessWideningIgnoringLength(mapped, declared)) {
            throw new IllegalArgumentException(
                    "not a lossless widening: "
                            + mapped.asSummaryString()
                            + " to "
                            + declared.asSummaryString());
        }
        if (column != null && column.type().isSpatial()) {
            return SPATIAL_AS_WKB;
        }
        if (column != null && column.type() == MySqlType.JSON && settings.legacyJson()) {
            return LEGACY_JSON;
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

    private static FieldWidening mySqlMeaning(
            ColumnSchema column, LogicalType declared, DeclaredValueSettings settings) {
        if (column.type().isSpatial()) {
            return SPATIAL_AS_MYSQL_CDC_TEXT;
        }
        switch (column.type()) {
            case TINYINT:
                return TINYINT_AS_BOOLEAN;
            case TIME:
                return TIME_AS_TIME;
            case TIMESTAMP:
                if (settings.wallClockZone() == null) {
                    throw new IllegalStateException(
                            "column " + column.name() + ": no zone for a wall-clock TIMESTAMP");
                }
                return wallClockIn(settings.wallClockZone());
            case SET:
                return SET_AS_ARRAY;
            case FLOAT:
            case DOUBLE:
                DecimalType d = (DecimalType) declared;
                return approximateAsDecimal(d.getPrecision(), d.getScale());
            default:
                throw new IllegalArgumentException("no MySQL meaning for " + column.type());
        }
    }
}
