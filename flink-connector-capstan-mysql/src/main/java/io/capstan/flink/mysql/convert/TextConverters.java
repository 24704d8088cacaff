package io.capstan.flink.mysql.convert;

import org.apache.flink.table.data.StringData;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

/** Character strings, binary strings, BIT, ENUM and SET. */
final class TextConverters {

    private TextConverters() {}

    /**
     * CHAR/VARCHAR/TEXT → StringData decoded with the column's charset. CHAR values lose trailing
     * spaces on retrieval in MySQL (without PAD_CHAR_TO_FULL_LENGTH), so the binlog path strips
     * them too.
     */
    static final class Text extends ColumnConverter {
        private final String charsetName;
        private final boolean stripTrailingSpaces;

        /**
         * utf8mb4/utf8mb3: binlog bytes are already StringData's UTF-8, and JDBC sends the value as
         * UTF-8 too (character_set_results is utf8mb4, or the column's own charset), so the bytes
         * are wrapped as they are: no decoding now, no encoding when Flink serializes.
         */
        private final boolean utf8;

        private transient Charset charset; // not serializable; looked up again after a copy

        Text(Charset charset, boolean stripTrailingSpaces) {
            this.charset = charset;
            this.charsetName = charset.name();
            this.stripTrailingSpaces = stripTrailingSpaces;
            this.utf8 = StandardCharsets.UTF_8.equals(charset);
        }

        private Charset charset() {
            Charset c = charset;
            if (c == null) {
                c = Charset.forName(charsetName);
                charset = c;
            }
            return c;
        }

        @Override
        Object fromBinlog(Object raw) {
            byte[] b = (byte[]) raw;
            int len = b.length;
            if (stripTrailingSpaces) {
                while (len > 0 && b[len - 1] == ' ') {
                    len--;
                }
            }
            if (utf8) {
                return StringData.fromBytes(b, 0, len);
            }
            return StringData.fromString(decode(b, len));
        }

        /**
         * MySQL's utf32: big-endian code points. Java's UTF-32 decoders (also "UTF-32BE") take a
         * leading U+FEFF for a byte-order mark and drop it; a value may begin with that character.
         */
        private static String utf32(byte[] b, int len) {
            StringBuilder sb = new StringBuilder(len / 4);
            for (int i = 0; i + 3 < len; i += 4) {
                int cp =
                        (b[i] & 0xFF) << 24
                                | (b[i + 1] & 0xFF) << 16
                                | (b[i + 2] & 0xFF) << 8
                                | (b[i + 3] & 0xFF);
                if (Character.isValidCodePoint(cp)) {
                    sb.appendCodePoint(cp);
                } else {
                    sb.append('\uFFFD');
                }
            }
            return sb.toString();
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            if (utf8) {
                byte[] b = rs.getBytes(i);
                return b == null ? null : StringData.fromBytes(b);
            }
            if (bigEndianUnicode()) {
                // The driver gets these in the column's own character set and decodes them as
                // "UTF-16"/"UTF-32", dropping a leading U+FEFF: decoded here from the bytes.
                byte[] b = rs.getBytes(i);
                return b == null ? null : StringData.fromString(decode(b, b.length));
            }
            String s = rs.getString(i);
            return s == null ? null : StringData.fromString(s);
        }

        private boolean bigEndianUnicode() {
            return charsetName.equals("UTF-16BE") || charsetName.equals("UTF-32BE");
        }

        private String decode(byte[] b, int len) {
            return charsetName.equals("UTF-32BE")
                    ? utf32(b, len)
                    : new String(b, 0, len, charset());
        }
    }

    /** BINARY/VARBINARY/BLOB → byte[]; BINARY(n) is re-padded with 0x00 to n bytes. */
    static final class Bytes extends ColumnConverter {
        private final int padTo;

        Bytes(int padTo) {
            this.padTo = padTo;
        }

        @Override
        Object fromBinlog(Object raw) {
            byte[] b = (byte[]) raw;
            return b.length < padTo ? Arrays.copyOf(b, padTo) : b;
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            return rs.getBytes(i);
        }
    }

    /** BIT(1) → Boolean. */
    static final class Bit1 extends ColumnConverter {
        @Override
        Object fromBinlog(Object raw) {
            return nonZero((byte[]) raw);
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            byte[] b = rs.getBytes(i);
            return b == null ? null : nonZero(b);
        }

        private static boolean nonZero(byte[] b) {
            for (byte x : b) {
                if (x != 0) {
                    return true;
                }
            }
            return false;
        }
    }

    /** BIT(2..64) → byte[] of (n+7)/8 bytes, big-endian. */
    static final class BitBytes extends ColumnConverter {
        private final int bytes;

        BitBytes(int bits) {
            this.bytes = (bits + 7) / 8;
        }

        @Override
        Object fromBinlog(Object raw) {
            return fit((byte[]) raw);
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            byte[] b = rs.getBytes(i);
            return b == null ? null : fit(b);
        }

        /** Left-pads (or drops leading zero bytes) to exactly (n+7)/8 bytes. */
        private byte[] fit(byte[] b) {
            if (b.length == bytes) {
                return b;
            }
            byte[] out = new byte[bytes];
            int n = Math.min(b.length, bytes);
            System.arraycopy(b, b.length - n, out, bytes - n, n);
            return out;
        }
    }

    /** ENUM → the label; index 0 (the error value of non-strict mode) is the empty string. */
    static final class Enum extends ColumnConverter {
        private final StringData[] labels;

        Enum(List<String> labels) {
            this.labels = new StringData[labels.size() + 1];
            this.labels[0] = StringData.fromString("");
            for (int k = 0; k < labels.size(); k++) {
                this.labels[k + 1] = StringData.fromString(labels.get(k));
            }
        }

        @Override
        Object fromBinlog(Object raw) {
            int index = ((Number) raw).intValue();
            if (index < 0 || index >= labels.length) {
                throw new IllegalStateException("ENUM index outside the column's labels");
            }
            return labels[index];
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            String s = rs.getString(i);
            return s == null ? null : StringData.fromString(s);
        }
    }

    /** SET → the labels of the set bits in definition order, comma-joined (as MySQL prints). */
    static final class Set extends ColumnConverter {
        private final String[] labels;

        Set(List<String> labels) {
            this.labels = labels.toArray(new String[0]);
        }

        @Override
        Object fromBinlog(Object raw) {
            long mask = ((Number) raw).longValue();
            if (labels.length < 64 && (mask >>> labels.length) != 0) {
                throw new IllegalStateException("SET bits outside the column's labels");
            }
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < labels.length; k++) {
                if ((mask & (1L << k)) != 0) {
                    if (sb.length() > 0) {
                        sb.append(',');
                    }
                    sb.append(labels[k]);
                }
            }
            return StringData.fromString(sb.toString());
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            String s = rs.getString(i);
            return s == null ? null : StringData.fromString(s);
        }
    }

    /**
     * GEOMETRY and the spatial types → standard WKB (MySQL's 4-byte SRID prefix dropped), or
     * MySQL's value as stored (with the prefix) for {@link SpatialValueForm#MYSQL_INTERNAL}.
     */
    static final class Spatial extends ColumnConverter {
        private final boolean keepSrid;

        Spatial(SpatialValueForm form) {
            this.keepSrid = form == SpatialValueForm.MYSQL_INTERNAL;
        }

        @Override
        Object fromBinlog(Object raw) {
            return deliver((byte[]) raw);
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            byte[] b = rs.getBytes(i);
            return b == null ? null : deliver(b);
        }

        private byte[] deliver(byte[] b) {
            if (b.length < 4) {
                throw new IllegalStateException("spatial value shorter than its SRID prefix");
            }
            return keepSrid ? b : Arrays.copyOfRange(b, 4, b.length);
        }
    }
}
