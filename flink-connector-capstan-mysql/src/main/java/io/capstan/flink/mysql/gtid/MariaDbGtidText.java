package io.capstan.flink.mysql.gtid;

import io.capstan.flink.mysql.gtid.MariaDbGtidPosition.DomainGtid;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits MariaDB's text of a position, {@code domain-server-seq} entries joined by commas (the
 * empty text: no entry), into its GTIDs; whitespace around an entry is allowed. Each number is
 * decimal digits only and within its range. The messages quote only the offending entry, cut when
 * long. {@link MariaDbGtidPosition#of} checks that each domain appears once.
 */
final class MariaDbGtidText {

    /** A long entry is cut in error messages. */
    private static final int MAX_QUOTED = 60;

    private MariaDbGtidText() {}

    static List<DomainGtid> parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException(
                    "Invalid MariaDB GTID position: null (use \"\" for the empty position)");
        }
        if (text.isBlank()) {
            return List.of();
        }
        String[] entries = text.split(",", -1);
        List<DomainGtid> gtids = new ArrayList<>(entries.length);
        for (int i = 0; i < entries.length; i++) {
            String entry = entries[i].strip();
            if (entry.isEmpty()) {
                throw new IllegalArgumentException(
                        "Invalid MariaDB GTID position: entry "
                                + (i + 1)
                                + " of "
                                + entries.length
                                + " is empty");
            }
            gtids.add(parseEntry(entry, "Invalid MariaDB GTID position"));
        }
        return gtids;
    }

    static DomainGtid parseEntry(String entry, String prefix) {
        String[] parts = entry.split("-", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException(
                    prefix
                            + ": '"
                            + quoted(entry)
                            + "' is not domain-server-sequence (three numbers joined by '-')");
        }
        long domain = number(parts[0], MariaDbGtidPosition.MAX_ID, "domain id", entry, prefix);
        long server = number(parts[1], MariaDbGtidPosition.MAX_ID, "server id", entry, prefix);
        long sequence =
                number(
                        parts[2],
                        MariaDbGtidPosition.MAX_SEQUENCE,
                        "sequence number",
                        entry,
                        prefix);
        return new DomainGtid(domain, server, sequence);
    }

    private static long number(String digits, long max, String what, String entry, String prefix) {
        boolean decimal = !digits.isEmpty();
        for (int i = 0; decimal && i < digits.length(); i++) {
            char c = digits.charAt(i);
            decimal = c >= '0' && c <= '9';
        }
        if (!decimal) {
            throw new IllegalArgumentException(
                    prefix + ": in '" + quoted(entry) + "' the " + what + " is not a number");
        }
        long value;
        try {
            value = Long.parseUnsignedLong(digits);
        } catch (NumberFormatException e) {
            value = -1; // above 2^64 - 1
        }
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(
                    prefix + ": in '" + quoted(entry) + "' the " + what + " is above " + max);
        }
        return value;
    }

    private static String quoted(String entry) {
        return entry.length() <= MAX_QUOTED ? entry : entry.substring(0, MAX_QUOTED) + "...";
    }
}
