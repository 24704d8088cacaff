package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.stream.event.BinlogEvent;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * The identity of an XA transaction (format id, global transaction id, branch qualifier), as the
 * XA_PREPARE event carries it and as MySQL writes it into the binlog's {@code XA COMMIT} and {@code
 * XA ROLLBACK} statements: {@code X'hex',X'hex',formatId}. Equal ids name the same transaction.
 *
 * <p>{@link #toString()} shows only the lengths: an XID is application data (the no-values rule).
 */
final class XaId {

    private final int formatId;
    private final byte[] gtrid;
    private final byte[] bqual;

    private XaId(int formatId, byte[] gtrid, byte[] bqual) {
        this.formatId = formatId;
        this.gtrid = gtrid;
        this.bqual = bqual;
    }

    static XaId of(int formatId, byte[] gtrid, byte[] bqual) {
        return new XaId(formatId, gtrid.clone(), bqual.clone());
    }

    /** The id of a prepared part's XA_PREPARE event. */
    static XaId of(BinlogEvent.XaPrepare data) {
        byte[] d = data.data();
        int g = data.gtridLength();
        int b = data.bqualLength();
        if (d == null || g < 0 || b < 0 || g + b > d.length) {
            throw new IllegalArgumentException("XA_PREPARE event with an inconsistent XID");
        }
        return new XaId(
                data.formatId(), Arrays.copyOfRange(d, 0, g), Arrays.copyOfRange(d, g, g + b));
    }

    /**
     * Parses the XID MySQL writes after {@code XA COMMIT} / {@code XA ROLLBACK} / {@code XA START}:
     * {@code X'…',X'…',n}, optionally followed by more words (ONE PHASE).
     *
     * @throws IllegalArgumentException when the text is not in that form
     */
    static XaId parse(String text) {
        Cursor c = new Cursor(text.trim());
        byte[] gtrid = c.hexLiteral();
        c.expect(',');
        byte[] bqual = c.hexLiteral();
        c.expect(',');
        int formatId = c.integer();
        c.rest();
        return new XaId(formatId, gtrid, bqual);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof XaId x
                && formatId == x.formatId
                && Arrays.equals(gtrid, x.gtrid)
                && Arrays.equals(bqual, x.bqual);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * formatId + Arrays.hashCode(gtrid)) + Arrays.hashCode(bqual);
    }

    @Override
    public String toString() {
        return "XaId{format="
                + formatId
                + ", gtrid="
                + gtrid.length
                + "B, bqual="
                + bqual.length
                + "B}";
    }

    /** Reads the server-written XID text left to right; any deviation is an error. */
    private static final class Cursor {
        private final String s;
        private int i;

        Cursor(String s) {
            this.s = s;
        }

        byte[] hexLiteral() {
            if (i + 1 < s.length()
                    && (s.charAt(i) == 'X' || s.charAt(i) == 'x')
                    && s.charAt(i + 1) == '\'') {
                int close = s.indexOf('\'', i + 2);
                if (close > 0) {
                    String hex = s.substring(i + 2, close);
                    i = close + 1;
                    try {
                        return HexFormat.of().parseHex(hex);
                    } catch (IllegalArgumentException e) {
                        throw unreadable();
                    }
                }
            }
            throw unreadable();
        }

        void expect(char ch) {
            if (i >= s.length() || s.charAt(i) != ch) {
                throw unreadable();
            }
            i++;
        }

        int integer() {
            int start = i;
            if (i < s.length() && s.charAt(i) == '-') {
                i++;
            }
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            try {
                return Integer.parseInt(s.substring(start, i));
            } catch (NumberFormatException e) {
                throw unreadable();
            }
        }

        void rest() {
            if (i < s.length() && !Character.isWhitespace(s.charAt(i))) {
                throw unreadable();
            }
        }

        private IllegalArgumentException unreadable() {
            // The text is an XID, application data: not quoted (the no-values rule).
            return new IllegalArgumentException("not an XID in MySQL's binlog form");
        }
    }
}
