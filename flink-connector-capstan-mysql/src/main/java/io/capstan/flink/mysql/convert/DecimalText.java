package io.capstan.flink.mysql.convert;

/**
 * Parses the decimal text MySQL sends for a DECIMAL column ({@code -123.45}: an optional sign,
 * digits, and exactly the column's scale of fraction digits) into its unscaled value, for
 * precisions that fit a long. Anything else is left to {@link java.math.BigDecimal}.
 */
final class DecimalText {

    /** Flink's compact decimal precision: unscaled values below 10^18 fit a long. */
    static final int MAX_COMPACT_PRECISION = 18;

    /** Returned when the text is not a plain decimal of the expected shape. */
    static final long NOT_PLAIN = Long.MIN_VALUE;

    static final long[] POWERS_OF_TEN = new long[MAX_COMPACT_PRECISION + 1];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int k = 1; k < POWERS_OF_TEN.length; k++) {
            POWERS_OF_TEN[k] = POWERS_OF_TEN[k - 1] * 10;
        }
    }

    private DecimalText() {}

    /**
     * The unscaled value of {@code text} at {@code scale}, or {@link #NOT_PLAIN} when the text has
     * an exponent, other characters, more fraction digits than the scale, or more than 18 digits.
     */
    static long unscaled(byte[] text, int scale) {
        int i = 0;
        int n = text.length;
        boolean negative = false;
        if (n > 0 && (text[0] == '-' || text[0] == '+')) {
            negative = text[0] == '-';
            i = 1;
        }
        long v = 0;
        int digits = 0;
        int fractionDigits = -1; // -1: no point seen
        for (; i < n; i++) {
            byte c = text[i];
            if (c >= '0' && c <= '9') {
                if (++digits > MAX_COMPACT_PRECISION) {
                    return NOT_PLAIN;
                }
                v = v * 10 + (c - '0');
                if (fractionDigits >= 0) {
                    fractionDigits++;
                }
            } else if (c == '.' && fractionDigits < 0) {
                fractionDigits = 0;
            } else {
                return NOT_PLAIN;
            }
        }
        if (digits == 0) {
            return NOT_PLAIN;
        }
        int fraction = Math.max(fractionDigits, 0);
        if (fraction > scale || digits + (scale - fraction) > MAX_COMPACT_PRECISION) {
            return NOT_PLAIN;
        }
        v *= POWERS_OF_TEN[scale - fraction];
        return negative ? -v : v;
    }
}
