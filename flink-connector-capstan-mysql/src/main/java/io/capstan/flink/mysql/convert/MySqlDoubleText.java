package io.capstan.flink.mysql.convert;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * A double as MySQL's my_gcvt prints it in JSON: the shortest correctly rounded digits that read
 * back as the same double, in fixed notation when the decimal exponent allows, else {@code
 * d.ddde[-]x}; a fixed-notation integer gets ".0".
 *
 * <p>Fast path: Java 17's {@link Double#toString} gives digits that read back, but not always the
 * shortest. When they are at most 15 significant digits (trailing zeros dropped) of a normal double
 * they are what the exact search would find: decimals of up to 15 digits are spaced more than 4
 * ulps apart, so no other decimal of that length or shorter (a shorter one is one of them,
 * zero-padded) lies within the half-ulp that reads back, and the correctly rounded one is the
 * nearest. Otherwise (16-17 digits, subnormals) the digits come from the exact BigDecimal search.
 */
final class MySqlDoubleText {

    private static final int MAX_SIGNIFICANT_DIGITS = 17;
    private static final int MAX_FAST_DIGITS = 15;

    private MySqlDoubleText() {}

    static void append(StringBuilder out, double d) {
        if (d == 0) {
            out.append(1 / d < 0 ? "-0.0" : "0.0");
            return;
        }
        if (d < 0) {
            out.append('-');
            d = -d;
        }
        if (d >= Double.MIN_NORMAL && appendFast(out, d)) {
            return;
        }
        appendExact(out, d);
    }

    /** Appends and returns true when Double.toString's digits are provably the exact search's. */
    private static boolean appendFast(StringBuilder out, double d) {
        String s = Double.toString(d); // "ddd.ddd" or "d.dddE[-]x", positive, finite
        long m = 0;
        int n = 0; // significant digits in m
        int fractionDigits = 0;
        boolean inFraction = false;
        int exp = 0;
        int len = s.length();
        for (int k = 0; k < len; k++) {
            char c = s.charAt(k);
            if (c >= '0' && c <= '9') {
                if (n == 0 && c == '0') {
                    if (inFraction) {
                        fractionDigits++;
                    }
                    continue; // leading zero
                }
                if (n == MAX_FAST_DIGITS + 3) {
                    return false;
                }
                m = m * 10 + (c - '0');
                n++;
                if (inFraction) {
                    fractionDigits++;
                }
            } else if (c == '.') {
                inFraction = true;
            } else if (c == 'E') {
                exp = Integer.parseInt(s, k + 1, len, 10);
                break;
            } else {
                return false;
            }
        }
        // value = m × 10^q
        int q = exp - fractionDigits;
        while (m % 10 == 0) {
            m /= 10;
            n--;
            q++;
        }
        if (n > MAX_FAST_DIGITS) {
            return false;
        }
        format(out, Long.toString(m), n, n + q);
        return true;
    }

    /** The reference method: round the exact value at 1..17 digits until it reads back. */
    private static void appendExact(StringBuilder out, double d) {
        BigDecimal exact = new BigDecimal(d);
        BigDecimal shortest = exact;
        for (int p = 1; p <= MAX_SIGNIFICANT_DIGITS; p++) {
            BigDecimal r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            if (r.doubleValue() == d) {
                shortest = r;
                break;
            }
        }
        String digits = shortest.unscaledValue().toString();
        int len = digits.length();
        while (len > 1 && digits.charAt(len - 1) == '0') {
            len--;
        }
        format(out, digits, len, shortest.precision() - shortest.scale());
    }

    /** Prints 0.digits[0..len) × 10^decpt as MySQL does. */
    private static void format(StringBuilder out, String digits, int len, int decpt) {
        boolean fixed = (decpt >= -14 && decpt <= 15) || (decpt > 0 && len > decpt);
        if (fixed) {
            if (decpt <= 0) {
                out.append("0.");
                for (int k = 0; k < -decpt; k++) {
                    out.append('0');
                }
                out.append(digits, 0, len);
            } else if (decpt < len) {
                out.append(digits, 0, decpt).append('.').append(digits, decpt, len);
            } else {
                out.append(digits, 0, len);
                for (int k = len; k < decpt; k++) {
                    out.append('0');
                }
                out.append(".0");
            }
        } else {
            out.append(digits.charAt(0));
            if (len > 1) {
                out.append('.').append(digits, 1, len);
            }
            out.append('e').append(decpt - 1);
        }
    }
}
