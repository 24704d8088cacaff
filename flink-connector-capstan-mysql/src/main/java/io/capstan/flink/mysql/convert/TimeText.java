package io.capstan.flink.mysql.convert;

/**
 * Parses a TIME value as Connector/J hands its bytes over: the text protocol's {@code
 * [-]H+:MM:SS[.ffffff]}, or the binary protocol's {@code is_negative, days(4 LE), hour, minute,
 * second[, micros(4 LE)]} (server-side prepared statements), into signed microseconds.
 */
final class TimeText {

    private TimeText() {}

    static long micros(byte[] b) {
        if (b.length == 0) {
            return 0;
        }
        if (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')) {
            return fromText(b);
        }
        return fromBinary(b);
    }

    private static long fromText(byte[] b) {
        int i = 0;
        boolean negative = b[0] == '-';
        if (negative) {
            i++;
        }
        long hours = 0;
        while (i < b.length && b[i] != ':') {
            hours = hours * 10 + digit(b[i++]);
        }
        i++;
        long minutes = digit(b[i]) * 10L + digit(b[i + 1]);
        i += 3;
        long seconds = digit(b[i]) * 10L + digit(b[i + 1]);
        i += 2;
        long fraction = 0;
        if (i < b.length && b[i] == '.') {
            i++;
            int digits = 0;
            while (i < b.length && digits < 6) {
                fraction = fraction * 10 + digit(b[i++]);
                digits++;
            }
            for (; digits < 6; digits++) {
                fraction *= 10;
            }
        }
        long micros = ((hours * 60 + minutes) * 60 + seconds) * 1_000_000L + fraction;
        return negative ? -micros : micros;
    }

    private static long fromBinary(byte[] b) {
        if (b.length != 8 && b.length != 12) {
            throw new IllegalStateException("unexpected TIME encoding from the driver");
        }
        boolean negative = b[0] == 1;
        long days =
                (b[1] & 0xFF)
                        | (b[2] & 0xFF) << 8
                        | (b[3] & 0xFF) << 16
                        | (long) (b[4] & 0xFF) << 24;
        long hours = days * 24 + (b[5] & 0xFF);
        long micros = ((hours * 60 + (b[6] & 0xFF)) * 60 + (b[7] & 0xFF)) * 1_000_000L;
        if (b.length == 12) {
            micros +=
                    (b[8] & 0xFF)
                            | (b[9] & 0xFF) << 8
                            | (b[10] & 0xFF) << 16
                            | (long) (b[11] & 0xFF) << 24;
        }
        return negative ? -micros : micros;
    }

    private static int digit(byte c) {
        if (c < '0' || c > '9') {
            throw new IllegalStateException("unexpected character in a TIME value from the driver");
        }
        return c - '0';
    }
}
