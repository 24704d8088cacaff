package io.capstan.flink.mysql.convert;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Integers (signed and widened unsigned), DECIMAL, FLOAT and DOUBLE. */
final class NumericConverters {

    private NumericConverters() {}

    /** TINYINT → Byte. */
    static final class TinyInt extends ColumnConverter {
        @Override
        Object fromBinlog(Object raw) {
            return (byte) ((Number) raw).intValue();
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            byte v = rs.getByte(i);
            return rs.wasNull() ? null : v;
        }
    }

    /** SMALLINT → Short; TINYINT UNSIGNED → Short (0..255). */
    static final class SmallInt extends ColumnConverter {
        private final int mask;

        SmallInt(boolean fromUnsignedTiny) {
            this.mask = fromUnsignedTiny ? 0xFF : 0xFFFF_FFFF;
        }

        @Override
        Object fromBinlog(Object raw) {
            return (short) (((Number) raw).intValue() & mask);
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            short v = rs.getShort(i);
            return rs.wasNull() ? null : v;
        }
    }

    /** INT, MEDIUMINT (either sign), SMALLINT UNSIGNED → Integer. */
    static final class Int extends ColumnConverter {
        private final int mask;

        /**
         * @param unsignedBits 16 or 24 for an UNSIGNED source narrower than INT, else 0
         */
        Int(int unsignedBits) {
            this.mask = unsignedBits == 0 ? 0xFFFF_FFFF : (1 << unsignedBits) - 1;
        }

        @Override
        Object fromBinlog(Object raw) {
            return ((Number) raw).intValue() & mask;
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            int v = rs.getInt(i);
            return rs.wasNull() ? null : v;
        }
    }

    /** BIGINT → Long; INT UNSIGNED → Long (0..4294967295). */
    static final class BigInt extends ColumnConverter {
        private final boolean fromUnsignedInt;

        BigInt(boolean fromUnsignedInt) {
            this.fromUnsignedInt = fromUnsignedInt;
        }

        @Override
        Object fromBinlog(Object raw) {
            long v = ((Number) raw).longValue();
            return fromUnsignedInt ? v & 0xFFFF_FFFFL : v;
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            long v = rs.getLong(i);
            return rs.wasNull() ? null : v;
        }
    }

    /** BIGINT UNSIGNED → DECIMAL(20,0); the binlog hands it over as a signed long. */
    static final class UnsignedBigInt extends ColumnConverter {
        @Override
        Object fromBinlog(Object raw) {
            long v = ((Number) raw).longValue();
            BigDecimal d =
                    v >= 0 ? BigDecimal.valueOf(v) : new BigDecimal(Long.toUnsignedString(v));
            return DecimalData.fromBigDecimal(d, 20, 0);
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            BigDecimal v = rs.getBigDecimal(i);
            return v == null ? null : DecimalData.fromBigDecimal(v, 20, 0);
        }
    }

    /** DECIMAL(p,s) with p ≤ 38 → DecimalData; wider → STRING of the plain decimal text. */
    static final class Decimal extends ColumnConverter {
        private final int precision;
        private final int scale;
        private final boolean asString;

        Decimal(int precision, int scale, boolean asString) {
            this.precision = precision;
            this.scale = scale;
            this.asString = asString;
        }

        /**
         * {@code raw} is an {@link UnscaledDecimal} (precision ≤ 18) or a {@link BigDecimal}
         * (wider), as {@link BinlogCells#newDecimal} decodes them.
         */
        @Override
        Object fromBinlog(Object raw) {
            if (raw instanceof UnscaledDecimal) {
                UnscaledDecimal cell = (UnscaledDecimal) raw;
                long unscaled = cell.unscaled();
                if (cell.scale() == scale
                        && !asString
                        && precision <= DecimalText.MAX_COMPACT_PRECISION
                        && Math.abs(unscaled) < DecimalText.POWERS_OF_TEN[precision]) {
                    return DecimalData.fromUnscaledLong(unscaled, precision, scale);
                }
                // Another scale (the table changed), STRING, or too many digits: the exact path.
                return convert(cell.toBigDecimal());
            }
            return convert((BigDecimal) raw);
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            if (precision > DecimalText.MAX_COMPACT_PRECISION || asString) {
                BigDecimal v = rs.getBigDecimal(i);
                return v == null ? null : convert(v);
            }
            // Compact precision: the unscaled long straight from the wire text, no BigDecimal.
            byte[] text = rs.getBytes(i);
            if (text == null) {
                return null;
            }
            long unscaled = DecimalText.unscaled(text, scale);
            if (unscaled == DecimalText.NOT_PLAIN) {
                return convert(new BigDecimal(new String(text, StandardCharsets.US_ASCII)));
            }
            if (Math.abs(unscaled) >= DecimalText.POWERS_OF_TEN[precision]) {
                throw new ArithmeticException("DECIMAL value exceeds the declared precision");
            }
            return DecimalData.fromUnscaledLong(unscaled, precision, scale);
        }

        private Object convert(BigDecimal v) {
            BigDecimal scaled = v.setScale(scale, RoundingMode.UNNECESSARY);
            if (asString) {
                return StringData.fromString(scaled.toPlainString());
            }
            DecimalData d = DecimalData.fromBigDecimal(scaled, precision, scale);
            if (d == null) {
                throw new ArithmeticException("DECIMAL value exceeds the declared precision");
            }
            return d;
        }
    }

    /**
     * FLOAT → Float, the stored float exactly. The binlog carries its 4 bytes; a SELECT of the
     * column itself over the text protocol would carry only the 6 digits MySQL prints for a FLOAT,
     * so the snapshot selects {@code col * 1e0}: a DOUBLE converted exactly from the stored float
     * (multiplying by 1 keeps {@code -0}, which adding 0 would not) and printed, like any DOUBLE,
     * with round-trip precision; over the binary protocol it is 8 exact bytes. Narrowing that
     * double back to a float is then exact too.
     */
    static final class Float extends ColumnConverter {
        @Override
        Object fromBinlog(Object raw) {
            return ((Number) raw).floatValue();
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            double v = rs.getDouble(i);
            return rs.wasNull() ? null : (float) v;
        }

        @Override
        String selectExpression(String quotedColumn) {
            return quotedColumn + " * 1e0";
        }
    }

    /** DOUBLE → Double (MySQL prints DOUBLE with round-trip precision, so JDBC is exact). */
    static final class Double extends ColumnConverter {
        @Override
        Object fromBinlog(Object raw) {
            return ((Number) raw).doubleValue();
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            double v = rs.getDouble(i);
            return rs.wasNull() ? null : v;
        }
    }
}
