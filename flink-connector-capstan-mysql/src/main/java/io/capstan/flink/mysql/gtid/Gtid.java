package io.capstan.flink.mysql.gtid;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;

/**
 * One MySQL global transaction identifier: {@code uuid:n}, or {@code uuid:tag:n} for the tagged
 * GTIDs of MySQL 8.3+. Immutable. The UUID and the tag are kept in MySQL's canonical lower case; an
 * untagged GTID has the empty tag.
 *
 * @param uuid the source server's UUID, lower case, in the 8-4-4-4-12 form
 * @param tag the tag, lower case; {@code ""} for an untagged GTID
 * @param transactionId the transaction number (MySQL's GNO), at least 1
 */
@Internal
public record Gtid(String uuid, String tag, long transactionId)
        implements Comparable<Gtid>, Serializable {

    private static final long serialVersionUID = 1L;

    /** The largest transaction number MySQL hands out (its GNO_END is 2^63 - 1, exclusive). */
    public static final long MAX_TRANSACTION_ID = Long.MAX_VALUE - 1;

    /** MySQL limits a tag to 32 characters. */
    static final int MAX_TAG_LENGTH = 32;

    /**
     * Validates the parts and keeps uuid and tag in canonical lower case: the one place a GTID's
     * parts are checked ({@link #parse} only splits the text). Java deserialization passes through
     * here too, so a corrupt stream cannot produce an invalid GTID (the stream reports an {@link
     * java.io.InvalidObjectException}).
     */
    public Gtid {
        if (transactionId < 1 || transactionId > MAX_TRANSACTION_ID) {
            throw new IllegalArgumentException(
                    "Invalid GTID transaction number '"
                            + transactionId
                            + "': must be between 1 and "
                            + MAX_TRANSACTION_ID);
        }
        uuid = canonicalUuid(uuid);
        tag = canonicalTag(tag);
    }

    /** An untagged GTID; {@code uuid} may be upper or lower case. */
    public static Gtid of(String uuid, long transactionId) {
        return new Gtid(uuid, "", transactionId);
    }

    /** A GTID with the given tag ({@code ""} = untagged); uuid and tag may be in any case. */
    public static Gtid of(String uuid, String tag, long transactionId) {
        return new Gtid(uuid, tag, transactionId);
    }

    /**
     * Parses {@code uuid:n} or {@code uuid:tag:n} (surrounding whitespace is ignored). The
     * constructor validates the parts; its message is prefixed with the text.
     */
    public static Gtid parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("Invalid GTID: null");
        }
        String[] parts = text.trim().split(":", -1);
        if (parts.length != 2 && parts.length != 3) {
            throw new IllegalArgumentException(
                    "Invalid GTID '" + text + "': expected 'uuid:number' or 'uuid:tag:number'");
        }
        String uuid = parts[0].trim();
        String tag = parts.length == 3 ? parts[1].trim() : "";
        long n = parseDigits(parts[parts.length - 1].trim(), text);
        try {
            return new Gtid(uuid, tag, n);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Invalid GTID '" + text + "': " + e.getMessage(), e);
        }
    }

    public boolean isTagged() {
        return !tag.isEmpty();
    }

    @Override
    public int compareTo(Gtid other) {
        int c = compareSource(uuid, tag, other.uuid, other.tag);
        return c != 0 ? c : Long.compare(transactionId, other.transactionId);
    }

    /** MySQL's form: {@code uuid:n} or {@code uuid:tag:n}. */
    @Override
    public String toString() {
        return tag.isEmpty() ? uuid + ":" + transactionId : uuid + ":" + tag + ":" + transactionId;
    }

    // ---- syntax shared with the GTID-set parser ----

    /** Orders sources by uuid, then tag (the untagged source of a uuid first). */
    static int compareSource(String uuidA, String tagA, String uuidB, String tagB) {
        int c = uuidA.compareTo(uuidB);
        return c != 0 ? c : tagA.compareTo(tagB);
    }

    /** Validates a UUID in MySQL's 8-4-4-4-12 hex form and returns it in lower case. */
    static String canonicalUuid(String uuid) {
        if (uuid == null) {
            throw new IllegalArgumentException("Invalid GTID source UUID: null");
        }
        if (uuid.length() != 36) {
            throw badUuid(uuid);
        }
        boolean lower = true;
        for (int i = 0; i < 36; i++) {
            char ch = uuid.charAt(i);
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (ch != '-') {
                    throw badUuid(uuid);
                }
            } else if ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')) {
                // already canonical
            } else if (ch >= 'A' && ch <= 'F') {
                lower = false;
            } else {
                throw badUuid(uuid);
            }
        }
        return lower ? uuid : uuid.toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Validates a tag as MySQL defines it (1 to 32 characters, a letter or underscore followed by
     * letters, digits or underscores, case-insensitive) and returns it in lower case. The empty
     * string means "untagged" and is returned as is.
     */
    static String canonicalTag(String tag) {
        if (tag == null) {
            throw new IllegalArgumentException("Invalid GTID tag: null");
        }
        if (tag.isEmpty()) {
            return tag;
        }
        if (tag.length() > MAX_TAG_LENGTH) {
            throw badTag(tag, "longer than " + MAX_TAG_LENGTH + " characters");
        }
        boolean lower = true;
        for (int i = 0; i < tag.length(); i++) {
            char ch = tag.charAt(i);
            boolean letter = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
            boolean ok = letter || ch == '_' || (i > 0 && ch >= '0' && ch <= '9');
            if (!ok) {
                throw badTag(
                        tag,
                        i == 0
                                ? "must start with a letter or '_'"
                                : "may contain only letters, digits and '_'");
            }
            if (ch >= 'A' && ch <= 'Z') {
                lower = false;
            }
        }
        return lower ? tag : tag.toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Parses an unsigned decimal number that fits a long (its range as a transaction number is the
     * constructor's check); {@code context} is quoted on error.
     */
    private static long parseDigits(String digits, String context) {
        if (digits.isEmpty() || digits.length() > 19) {
            throw badNumber(digits, context);
        }
        long n = 0;
        for (int i = 0; i < digits.length(); i++) {
            char ch = digits.charAt(i);
            if (ch < '0' || ch > '9') {
                throw badNumber(digits, context);
            }
            n = n * 10 + (ch - '0');
            if (n < 0) {
                throw badNumber(digits, context);
            }
        }
        return n;
    }

    private static IllegalArgumentException badUuid(String uuid) {
        return new IllegalArgumentException(
                "Invalid GTID source UUID '"
                        + uuid
                        + "': expected 32 hex digits in the form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx");
    }

    private static IllegalArgumentException badTag(String tag, String reason) {
        return new IllegalArgumentException("Invalid GTID tag '" + tag + "': " + reason);
    }

    private static IllegalArgumentException badNumber(String digits, String context) {
        return new IllegalArgumentException(
                "Invalid transaction number '"
                        + digits
                        + "' in '"
                        + context
                        + "': expected a decimal number between 1 and "
                        + MAX_TRANSACTION_ID);
    }
}
