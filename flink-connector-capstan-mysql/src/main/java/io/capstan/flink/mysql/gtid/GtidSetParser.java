package io.capstan.flink.mysql.gtid;

/**
 * Parses MySQL's text form of a GTID set:
 *
 * <pre>
 * gtid_set  := [uuid_set [, uuid_set]...]          (empty text = empty set)
 * uuid_set  := uuid (: item)+
 * item      := range | tag                          (a tag applies to the ranges after it)
 * range     := n | n-m                              (1 <= n <= m)
 * tag       := [a-zA-Z_][a-zA-Z0-9_]{0,31}          (MySQL 8.3+, case-insensitive)
 * </pre>
 *
 * Whitespace (MySQL prints a newline after each comma) is allowed around every token, and empty
 * entries between commas are skipped as MySQL does.
 */
final class GtidSetParser {

    /** Long sets are cut in error messages; the offending fragment itself is always quoted. */
    private static final int MAX_QUOTED = 120;

    private GtidSetParser() {}

    static GtidSet parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException(
                    "Invalid GTID set: null (use \"\" for the empty set)");
        }
        GtidSet.Builder builder = GtidSet.builder();
        for (String rawEntry : text.split(",", -1)) {
            String entry = rawEntry.strip();
            if (!entry.isEmpty()) {
                parseUuidSet(entry, builder);
            }
        }
        return builder.build();
    }

    private static void parseUuidSet(String entry, GtidSet.Builder builder) {
        String[] items = entry.split(":", -1);
        String uuid;
        try {
            uuid = Gtid.canonicalUuid(items[0].strip());
        } catch (IllegalArgumentException e) {
            throw error(
                    "source UUID '"
                            + items[0].strip()
                            + "' is not 32 hex digits in the form "
                            + "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
                    entry);
        }
        if (items.length == 1) {
            throw error("source UUID '" + uuid + "' has no transaction numbers", entry);
        }
        String tag = "";
        boolean tagHasRanges = true;
        for (int i = 1; i < items.length; i++) {
            String item = items[i].strip();
            if (item.isEmpty()) {
                throw error("empty range or tag after ':'", entry);
            }
            char first = item.charAt(0);
            if (first >= '0' && first <= '9') {
                parseRange(item, uuid, tag, entry, builder);
                tagHasRanges = true;
            } else {
                if (!tagHasRanges) {
                    throw error("tag '" + tag + "' has no transaction numbers", entry);
                }
                try {
                    tag = Gtid.canonicalTag(item);
                } catch (IllegalArgumentException e) {
                    throw error(
                            "'"
                                    + item
                                    + "' is neither a range nor a valid tag (a tag is 1 to "
                                    + Gtid.MAX_TAG_LENGTH
                                    + " letters, digits or '_', starting with a "
                                    + "letter or '_')",
                            entry);
                }
                tagHasRanges = false;
            }
        }
        if (!tagHasRanges) {
            throw error("tag '" + tag + "' has no transaction numbers", entry);
        }
    }

    private static void parseRange(
            String item, String uuid, String tag, String entry, GtidSet.Builder builder) {
        int dash = item.indexOf('-');
        String firstText = (dash < 0 ? item : item.substring(0, dash)).strip();
        String lastText = dash < 0 ? firstText : item.substring(dash + 1).strip();
        long first = number(firstText, item, entry);
        long last = number(lastText, item, entry);
        if (first > last) {
            throw error("reversed range '" + item + "' (start is greater than end)", entry);
        }
        builder.addRange(uuid, tag, first, last);
    }

    private static long number(String digits, String item, String entry) {
        boolean allDigits = !digits.isEmpty() && digits.length() <= 19;
        for (int i = 0; allDigits && i < digits.length(); i++) {
            char ch = digits.charAt(i);
            allDigits = ch >= '0' && ch <= '9';
        }
        if (!allDigits) {
            throw error("range '" + item + "' is not 'n' or 'n-m' with decimal numbers", entry);
        }
        long n;
        try {
            n = Long.parseLong(digits);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 1 || n > Gtid.MAX_TRANSACTION_ID) {
            throw error(
                    "transaction number '"
                            + digits
                            + "' in range '"
                            + item
                            + "' is out of range (1 to "
                            + Gtid.MAX_TRANSACTION_ID
                            + ")",
                    entry);
        }
        return n;
    }

    private static IllegalArgumentException error(String reason, String entry) {
        String quoted =
                entry.length() <= MAX_QUOTED ? entry : entry.substring(0, MAX_QUOTED) + "...";
        return new IllegalArgumentException(
                "Invalid GTID set: " + reason + ", in '" + quoted + "'");
    }
}
