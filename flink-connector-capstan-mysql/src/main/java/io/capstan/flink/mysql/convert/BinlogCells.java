package io.capstan.flink.mysql.convert;

import com.github.shyiko.mysql.binlog.event.deserialization.AbstractRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;
import java.io.Serializable;

/**
 * Decodes the binlog cells the library gets wrong or hands over in an inconvenient form, exactly as
 * MySQL stores them (sql-common/my_time.cc, sql/field.cc). The values are what {@link
 * RowConverter#fromBinlog} expects:
 *
 * <ul>
 *   <li>BIT(n): {@code byte[]} of (n+7)/8 bytes, big-endian (as JDBC {@code getBytes}).
 *   <li>DATE: {@code Integer} days since 1970-01-01 (proleptic Gregorian, year 0 allowed); null for
 *       the zero date and for dates with a zero month or day.
 *   <li>TIME(fsp): {@code Long} signed microseconds (the library loses the sign).
 *   <li>DATETIME(fsp): {@code Long} microseconds of the wall-clock value read as UTC; null like
 *       DATE.
 *   <li>TIMESTAMP(fsp): {@code Long} microseconds since the epoch; null for the zero timestamp.
 *   <li>YEAR: {@code Integer}, 0 for the zero year (the library gives 1900).
 *   <li>DECIMAL(p,s) (NEWDECIMAL): {@link UnscaledDecimal} for p ≤ 18 (decoded here without
 *       BigDecimal: the library builds each cell with a chain of BigDecimal operations); wider, the
 *       library's own {@code BigDecimal}.
 * </ul>
 *
 * Exception messages never carry a decoded value (the no-values rule).
 */
final class BinlogCells {

    private static final long TIMEF_INT_OFS = 0x800000L;
    private static final long TIMEF_OFS = 0x800000000000L;
    private static final long DATETIMEF_INT_OFS = 0x8000000000L;
    private static final long MICROS_PER_SECOND = 1_000_000L;
    private static final long SECONDS_PER_DAY = 86_400L;

    /** DECIMAL storage: digits per full group (4 bytes), and bytes of a group of n digits. */
    private static final int DIGITS_PER_GROUP = 9;

    private static final int[] DIGITS_TO_BYTES = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};

    private BinlogCells() {}

    static byte[] bit(int meta, ByteArrayInputStream in) throws IOException {
        int bits = (meta >> 8) * 8 + (meta & 0xFF);
        return in.read((bits + 7) / 8);
    }

    static Serializable date(ByteArrayInputStream in) throws IOException {
        int v = in.readInteger(3);
        int day = v & 31;
        int month = (v >>> 5) & 15;
        int year = v >>> 9;
        if (month == 0 || day == 0) {
            return null; // the zero date, or a date with a zero part (NO_ZERO_IN_DATE off)
        }
        return (int) epochDay(year, month, day);
    }

    static long time2(int fsp, ByteArrayInputStream in) throws IOException {
        long packed;
        switch (fsp) {
            case 1:
            case 2:
                {
                    long intPart = bigEndian(in, 3) - TIMEF_INT_OFS;
                    int frac = in.read() & 0xFF;
                    if (intPart < 0 && frac != 0) {
                        intPart++;
                        frac -= 0x100;
                    }
                    packed = (intPart << 24) + frac * 10_000L;
                    break;
                }
            case 3:
            case 4:
                {
                    long intPart = bigEndian(in, 3) - TIMEF_INT_OFS;
                    int frac = (int) bigEndian(in, 2);
                    if (intPart < 0 && frac != 0) {
                        intPart++;
                        frac -= 0x10000;
                    }
                    packed = (intPart << 24) + frac * 100L;
                    break;
                }
            case 5:
            case 6:
                packed = bigEndian(in, 6) - TIMEF_OFS;
                break;
            default:
                packed = (bigEndian(in, 3) - TIMEF_INT_OFS) << 24;
                break;
        }
        boolean negative = packed < 0;
        long abs = Math.abs(packed);
        long hms = abs >> 24;
        long micros = abs & 0xFFFFFFL;
        long hour = (hms >> 12) & 0x3FF;
        long minute = (hms >> 6) & 0x3F;
        long second = hms & 0x3F;
        long total = ((hour * 60 + minute) * 60 + second) * MICROS_PER_SECOND + micros;
        return negative ? -total : total;
    }

    static Serializable datetime2(int fsp, ByteArrayInputStream in) throws IOException {
        long intPart = bigEndian(in, 5) - DATETIMEF_INT_OFS;
        long frac = fraction(fsp, in);
        if (intPart < 0) {
            throw new IOException("negative DATETIME in a rows event");
        }
        long ymd = intPart >> 17;
        long hms = intPart & ((1 << 17) - 1);
        long ym = ymd >> 5;
        int day = (int) (ymd & 31);
        int year = (int) (ym / 13);
        int month = (int) (ym % 13);
        if (month == 0 || day == 0) {
            return null; // the zero date, or a date with a zero part (NO_ZERO_IN_DATE off)
        }
        long second = hms & 0x3F;
        long minute = (hms >> 6) & 0x3F;
        long hour = hms >> 12;
        long seconds =
                epochDay(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second;
        return seconds * MICROS_PER_SECOND + frac;
    }

    static Serializable timestamp2(int fsp, ByteArrayInputStream in) throws IOException {
        long seconds = bigEndian(in, 4);
        long frac = fraction(fsp, in);
        if (seconds == 0 && frac == 0) {
            return null; // the zero timestamp '0000-00-00 00:00:00'
        }
        return seconds * MICROS_PER_SECOND + frac;
    }

    static int year(ByteArrayInputStream in) throws IOException {
        int v = in.read() & 0xFF;
        return v == 0 ? 0 : 1900 + v;
    }

    /**
     * A NEWDECIMAL cell (MySQL's strings/decimal.cc {@code decimal2bin}): the integer digits, then
     * the fraction digits, each part in big-endian groups of 9 digits in 4 bytes, the integer
     * part's leading and the fraction's trailing partial group in {@link #DIGITS_TO_BYTES} bytes;
     * the first byte's top bit flipped, and every bit inverted for a negative value.
     *
     * @param meta precision in the low byte, scale in the high byte (the table map's metadata)
     */
    static Serializable newDecimal(int meta, ByteArrayInputStream in) throws IOException {
        int precision = meta & 0xFF;
        int scale = meta >> 8;
        int intDigits = precision - scale;
        int leadDigits = intDigits % DIGITS_PER_GROUP;
        int tailDigits = scale % DIGITS_PER_GROUP;
        int fullGroups = intDigits / DIGITS_PER_GROUP + scale / DIGITS_PER_GROUP;
        if (precision > DecimalText.MAX_COMPACT_PRECISION || precision < 1) {
            // Wider than a long: the library's own decoding, unchanged. A DecimalData of p > 18
            // holds a BigDecimal anyway, and parsing the cell's digit text instead measured
            // more than twice the library's CPU time for DECIMAL(38,10).
            int length = DIGITS_TO_BYTES[leadDigits] + fullGroups * 4 + DIGITS_TO_BYTES[tailDigits];
            return AbstractRowsEventDataDeserializer.asBigDecimal(
                    precision, scale, in.read(length));
        }
        // Byte by byte into a long: no array, no BigDecimal.
        int first = in.read();
        int invert = (first & 0x80) != 0 ? 0 : 0xFF; // top bit clear: negative
        int pending = first ^ 0x80;
        long unscaled = 0;
        int groups = (leadDigits > 0 ? 1 : 0) + fullGroups + (tailDigits > 0 ? 1 : 0);
        for (int g = 0; g < groups; g++) {
            int digits = DIGITS_PER_GROUP;
            if (g == 0 && leadDigits > 0) {
                digits = leadDigits;
            } else if (g == groups - 1 && tailDigits > 0) {
                digits = tailDigits;
            }
            long group = 0;
            for (int k = DIGITS_TO_BYTES[digits]; k > 0; k--) {
                int b = pending >= 0 ? pending : in.read();
                pending = -1;
                group = (group << 8) | ((b ^ invert) & 0xFF);
            }
            unscaled = unscaled * DecimalText.POWERS_OF_TEN[digits] + group;
        }
        return new UnscaledDecimal(invert == 0 ? unscaled : -unscaled, scale);
    }

    /** Fractional seconds in microseconds; the storage is (fsp+1)/2 big-endian bytes. */
    private static long fraction(int fsp, ByteArrayInputStream in) throws IOException {
        switch (fsp) {
            case 1:
            case 2:
                return (in.read() & 0xFF) * 10_000L;
            case 3:
            case 4:
                return bigEndian(in, 2) * 100L;
            case 5:
            case 6:
                return bigEndian(in, 3);
            default:
                return 0;
        }
    }

    private static long bigEndian(ByteArrayInputStream in, int length) throws IOException {
        byte[] b = in.read(length);
        long v = 0;
        for (byte x : b) {
            v = (v << 8) | (x & 0xFF);
        }
        return v;
    }

    /** Proleptic Gregorian day number; lenient like MySQL's own arithmetic for invalid days. */
    static long epochDay(int year, int month, int day) {
        // Howard Hinnant's days_from_civil.
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }
}
