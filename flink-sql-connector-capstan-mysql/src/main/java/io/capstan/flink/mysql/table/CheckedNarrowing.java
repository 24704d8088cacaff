package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

import javax.annotation.Nullable;

import java.math.BigDecimal;

/**
 * The declarations narrower than the MySQL column that capstan accepts and checks value by value,
 * as mysql-cdc users write them: an integer column (signed or not; {@code BIGINT UNSIGNED} is read
 * as {@code DECIMAL(20, 0)}) or a {@code DECIMAL(p, 0)} declared as a narrower integer type, a
 * character column declared as a shorter {@code VARCHAR(n)}, a byte-string column declared as a
 * shorter {@code VARBINARY(n)}. A value that fits is delivered unchanged; one that does not is
 * never wrapped or cut: {@link FieldWidening.DoesNotFit}, which halts the job naming table, column
 * and declared type (never the value). mysql-cdc wraps such integers and passes over-long strings
 * through (Flink does not enforce a declared length at a source), so the declared type would lie.
 * Pure logic.
 */
@Internal
public final class CheckedNarrowing {

    private CheckedNarrowing() {}

    /**
     * Whether {@code declared} is a narrowing of {@code column}'s values that capstan checks per
     * value. False for the lossless widenings (which need no check).
     *
     * @param mapped the type the values arrive as (strings as {@code STRING} at runtime, with the
     *     column's length at planning)
     */
    public static boolean accepts(
            @Nullable ColumnSchema column, LogicalType mapped, LogicalType declared) {
        return kind(column, mapped, declared) != Kind.NONE;
    }

    private enum Kind {
        NONE,
        INTEGER,
        CHARACTERS,
        BYTES
    }

    private static Kind kind(
            @Nullable ColumnSchema column, LogicalType mapped, LogicalType declared) {
        LogicalTypeRoot from = mapped.getTypeRoot();
        LogicalTypeRoot to = declared.getTypeRoot();
        if (column != null && (column.type().isSpatial() || column.type() == MySqlType.JSON)) {
            return Kind.NONE; // their text or bytes are rewritten, not read as stored
        }
        int toRank = DeclaredTypeRule.integerRank(to);
        if (toRank > 0) {
            int fromRank = DeclaredTypeRule.integerRank(from);
            if (fromRank > toRank) {
                return Kind.INTEGER;
            }
            if (from == LogicalTypeRoot.DECIMAL && ((DecimalType) mapped).getScale() == 0) {
                return Kind.INTEGER;
            }
            return Kind.NONE;
        }
        if (to == LogicalTypeRoot.VARCHAR
                && (from == LogicalTypeRoot.VARCHAR || from == LogicalTypeRoot.CHAR)
                && LogicalTypeChecks.getLength(declared) < sourceLength(column, mapped)) {
            return Kind.CHARACTERS;
        }
        if (to == LogicalTypeRoot.VARBINARY
                && (from == LogicalTypeRoot.VARBINARY || from == LogicalTypeRoot.BINARY)
                && LogicalTypeChecks.getLength(declared) < sourceLength(column, mapped)) {
            return Kind.BYTES;
        }
        return Kind.NONE;
    }

    /** The longest value of the column: its declared length when known, else the mapped one. */
    private static int sourceLength(@Nullable ColumnSchema column, LogicalType mapped) {
        LogicalType source = column == null ? mapped : MySqlTableShapes.valueType(column);
        LogicalTypeRoot root = source.getTypeRoot();
        if (root == LogicalTypeRoot.VARCHAR
                || root == LogicalTypeRoot.CHAR
                || root == LogicalTypeRoot.VARBINARY
                || root == LogicalTypeRoot.BINARY) {
            return LogicalTypeChecks.getLength(source);
        }
        return Integer.MAX_VALUE;
    }

    /** The checking conversion; {@link #accepts} must hold. */
    static FieldWidening conversion(
            @Nullable ColumnSchema column, LogicalType mapped, LogicalType declared) {
        switch (kind(column, mapped, declared)) {
            case INTEGER:
                return integer(declared.getTypeRoot(), mapped.copy(true).asSummaryString());
            case CHARACTERS:
                return characters(LogicalTypeChecks.getLength(declared));
            case BYTES:
                return bytes(LogicalTypeChecks.getLength(declared));
            default:
                throw new IllegalArgumentException(
                        "not a checked narrowing: "
                                + mapped.asSummaryString()
                                + " to "
                                + declared.asSummaryString());
        }
    }

    private static FieldWidening integer(LogicalTypeRoot to, String mappedType) {
        long min;
        long max;
        switch (to) {
            case TINYINT:
                min = Byte.MIN_VALUE;
                max = Byte.MAX_VALUE;
                break;
            case SMALLINT:
                min = Short.MIN_VALUE;
                max = Short.MAX_VALUE;
                break;
            case INTEGER:
                min = Integer.MIN_VALUE;
                max = Integer.MAX_VALUE;
                break;
            default:
                min = Long.MIN_VALUE;
                max = Long.MAX_VALUE;
        }
        String limit = "is outside the declared type's range";
        String remedy = "declare " + mappedType + " (every value of the MySQL column)";
        return value -> {
            long v;
            if (value instanceof DecimalData) {
                BigDecimal d = ((DecimalData) value).toBigDecimal();
                try {
                    v = d.longValueExact();
                } catch (ArithmeticException e) {
                    throw new FieldWidening.DoesNotFit(limit, remedy);
                }
            } else {
                v = ((Number) value).longValue();
            }
            if (v < min || v > max) {
                throw new FieldWidening.DoesNotFit(limit, remedy);
            }
            switch (to) {
                case TINYINT:
                    return (byte) v;
                case SMALLINT:
                    return (short) v;
                case INTEGER:
                    return (int) v;
                default:
                    return v;
            }
        };
    }

    private static FieldWidening characters(int length) {
        String limit = "has more than the declared " + length + " characters";
        String remedy = "declare a longer VARCHAR, or STRING";
        return value -> {
            byte[] utf8 = ((StringData) value).toBytes();
            // no more bytes than allowed characters: no need to count them
            if (utf8.length > length && characters(utf8) > length) {
                throw new FieldWidening.DoesNotFit(limit, remedy);
            }
            return value;
        };
    }

    /** Characters (code points) in UTF-8 text: the bytes that start one. */
    static int characters(byte[] utf8) {
        int n = 0;
        for (byte b : utf8) {
            if ((b & 0xC0) != 0x80) {
                n++;
            }
        }
        return n;
    }

    private static FieldWidening bytes(int length) {
        String limit = "has more than the declared " + length + " bytes";
        String remedy = "declare a longer VARBINARY, or BYTES";
        return value -> {
            if (((byte[]) value).length > length) {
                throw new FieldWidening.DoesNotFit(limit, remedy);
            }
            return value;
        };
    }
}
