package io.capstan.flink.mysql.convert;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The original (slow, obviously exact) printer of doubles in MySQL's JSON form, kept as the
 * reference that {@link MySqlDoubleText} must match: round the exact value at 1..17 significant
 * digits until it reads back, then print with MySQL's fixed/exponent rules.
 */
final class MySqlDoubleTextReference {

    private MySqlDoubleTextReference() {}

    static String print(double d) {
        StringBuilder out = new StringBuilder();
        if (d == 0) {
            return 1 / d < 0 ? "-0.0" : "0.0";
        }
        if (d < 0) {
            out.append('-');
            d = -d;
        }
        BigDecimal exact = new BigDecimal(d);
        BigDecimal shortest = exact;
        for (int p = 1; p <= 17; p++) {
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
        digits = digits.substring(0, len);
        int decpt = shortest.precision() - shortest.scale();
        boolean fixed = (decpt >= -14 && decpt <= 15) || (decpt > 0 && len > decpt);
        if (fixed) {
            if (decpt <= 0) {
                out.append("0.");
                for (int k = 0; k < -decpt; k++) {
                    out.append('0');
                }
                out.append(digits);
            } else if (decpt < len) {
                out.append(digits, 0, decpt).append('.').append(digits, decpt, len);
            } else {
                out.append(digits);
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
        return out.toString();
    }
}
