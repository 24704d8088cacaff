package io.capstan.flink.mysql.convert;

/**
 * Parses the text protocol's {@code YYYY-MM-DD[ hh:mm:ss[.ffffff]]} (or the binary protocol's
 * bytes) into microseconds since the epoch (wall clock read as UTC), the way {@link BinlogCells}
 * decodes the binlog: null when the month or day is zero, invalid days counted on leniently.
 * DATETIME and TIMESTAMP are always read this way (cheaper than the driver's getObject); DATE only
 * where the driver refuses the value (zero parts, ALLOW_INVALID_DATES).
 */
final class DateText {

    private DateText() {}

    static Long micros(byte[] b) {
        if (b == null) {
            return null;
        }
        if (b.length < 10 || b[4] != '-' || b[7] != '-') {
            return fromBinary(b);
        }
        int year = number(b, 0, 4);
        int month = number(b, 5, 2);
        int day = number(b, 8, 2);
        if (month == 0 || day == 0) {
            return null;
        }
        long seconds = BinlogCells.epochDay(year, month, day) * 86_400L;
        long fraction = 0;
        if (b.length >= 19) {
            seconds += number(b, 11, 2) * 3600L + number(b, 14, 2) * 60L + number(b, 17, 2);
            int digits = 0;
            for (int i = 20; i < b.length && digits < 6; i++, digits++) {
                fraction = fraction * 10 + digit(b[i]);
            }
            for (; digits < 6; digits++) {
                fraction *= 10;
            }
        }
        return seconds * 1_000_000L + fraction;
    }

    /** The binary protocol: year (2 LE), month, day[, hour, minute, second[, micros (4 LE)]]. */
    private static Long fromBinary(byte[] b) {
        if (b.length == 0) {
            return null;
        }
        if (b.length != 4 && b.length != 7 && b.length != 11) {
            throw new IllegalStateException("unexpected DATE/DATETIME encoding from the driver");
        }
        int year = (b[0] & 0xFF) | (b[1] & 0xFF) << 8;
        int month = b[2] & 0xFF;
        int day = b[3] & 0xFF;
        if (month == 0 || day == 0) {
            return null;
        }
        long seconds = BinlogCells.epochDay(year, month, day) * 86_400L;
        long fraction = 0;
        if (b.length >= 7) {
            seconds += (b[4] & 0xFF) * 3600L + (b[5] & 0xFF) * 60L + (b[6] & 0xFF);
        }
        if (b.length == 11) {
            fraction =
                    (b[7] & 0xFF)
                            | (b[8] & 0xFF) << 8
                            | (b[9] & 0xFF) << 16
                            | (long) (b[10] & 0xFF) << 24;
        }
        return seconds * 1_000_000L + fraction;
    }

    private static int number(byte[] b, int from, int length) {
        int v = 0;
        for (int i = from; i < from + length; i++) {
            v = v * 10 + digit(b[i]);
        }
        return v;
    }

    private static int digit(byte c) {
        if (c < '0' || c > '9') {
            throw new IllegalStateException(
                    "unexpected character in a DATE/DATETIME value from the driver");
        }
        return c - '0';
    }
}
