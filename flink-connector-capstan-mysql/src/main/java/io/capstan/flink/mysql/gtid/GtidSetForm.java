package io.capstan.flink.mysql.gtid;

import java.io.InvalidObjectException;

/**
 * The canonical form of a {@link GtidSet}'s parallel arrays (sources sorted by uuid then tag, each
 * with canonical, non-empty ranges): its MySQL text, and the check that a deserialized set has that
 * form, so a corrupt or hand-made stream never yields a set whose operations misbehave.
 */
final class GtidSetForm {

    private GtidSetForm() {}

    /**
     * The canonical MySQL text: {@code uuid:1-5:7,uuid2:1-3:tag1:1-2:tag2:9} (a uuid's untagged
     * ranges first, then each tag in order); {@code ""} for the empty set.
     */
    static String text(String[] uuids, String[] tags, long[][] bounds) {
        StringBuilder sb = new StringBuilder(uuids.length * 48);
        for (int i = 0; i < uuids.length; i++) {
            boolean sameUuid = i > 0 && uuids[i].equals(uuids[i - 1]);
            if (!sameUuid) {
                if (i > 0) {
                    sb.append(',');
                }
                sb.append(uuids[i]);
            }
            sb.append(':');
            if (!tags[i].isEmpty()) {
                sb.append(tags[i]).append(':');
            }
            Intervals.appendText(sb, bounds[i]);
        }
        return sb.toString();
    }

    static void requireCanonical(String[] uuids, String[] tags, long[][] bounds)
            throws InvalidObjectException {
        if (uuids == null
                || tags == null
                || bounds == null
                || uuids.length != tags.length
                || uuids.length != bounds.length) {
            throw new InvalidObjectException("Corrupt serialized GTID set: inconsistent arrays");
        }
        for (int i = 0; i < uuids.length; i++) {
            try {
                if (!uuids[i].equals(Gtid.canonicalUuid(uuids[i]))
                        || !tags[i].equals(Gtid.canonicalTag(tags[i]))) {
                    throw new InvalidObjectException(
                            "Corrupt serialized GTID set: non-canonical source");
                }
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new InvalidObjectException("Corrupt serialized GTID set: " + e.getMessage());
            }
            if (i > 0 && Gtid.compareSource(uuids[i - 1], tags[i - 1], uuids[i], tags[i]) >= 0) {
                throw new InvalidObjectException("Corrupt serialized GTID set: sources not sorted");
            }
            if (!Intervals.isCanonical(bounds[i])) {
                throw new InvalidObjectException(
                        "Corrupt serialized GTID set: ranges not canonical");
            }
        }
    }
}
