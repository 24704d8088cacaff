package io.capstan.flink.mysql.convert;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;

/**
 * Test encoder: a DECIMAL value as MySQL stores it in a row image (strings/decimal.cc {@code
 * decimal2bin}), written from the decimal digits so that it shares no code with the decoders.
 */
final class DecimalBytes {

    private static final int[] DIGITS_TO_BYTES = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};

    private DecimalBytes() {}

    /**
     * {@code magnitude} (unscaled, below 10^precision) with the sign given; {@code negative} with a
     * zero magnitude gives the negative-zero image.
     */
    static byte[] encode(BigInteger magnitude, boolean negative, int precision, int scale) {
        String digits = magnitude.toString();
        if (magnitude.signum() < 0 || digits.length() > precision) {
            throw new IllegalArgumentException("magnitude out of range");
        }
        digits = "0".repeat(precision - digits.length()) + digits;
        int intDigits = precision - scale;
        int lead = intDigits % 9;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        group(out, digits.substring(0, lead));
        for (int i = lead; i < intDigits; i += 9) {
            group(out, digits.substring(i, i + 9));
        }
        for (int i = intDigits; i + 9 <= precision; i += 9) {
            group(out, digits.substring(i, i + 9));
        }
        group(out, digits.substring(precision - scale % 9));
        byte[] b = out.toByteArray();
        if (negative) {
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) ~b[i];
            }
        }
        b[0] ^= (byte) 0x80;
        return b;
    }

    /** Up to 9 digits, big-endian in the bytes MySQL gives that many digits. */
    private static void group(ByteArrayOutputStream out, String digits) {
        if (digits.isEmpty()) {
            return;
        }
        long v = Long.parseLong(digits);
        for (int k = DIGITS_TO_BYTES[digits.length()] - 1; k >= 0; k--) {
            out.write((int) (v >>> (8 * k)) & 0xFF);
        }
    }
}
