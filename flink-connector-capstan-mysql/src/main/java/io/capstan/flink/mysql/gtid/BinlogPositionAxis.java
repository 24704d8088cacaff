package io.capstan.flink.mysql.gtid;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The transactions of one server's binary log, when the server writes no GTIDs, as a set of
 * transaction ordinals the {@link GtidSet} machinery already handles: every transaction has one
 * ordinal on the server's position axis, {@code (binlog file index << 32) | byte offset} of the
 * event that starts it. On one server the binary log is totally ordered, and (file, offset) order
 * is ordinal order, so "the transactions before position P" is the interval {@code 1..ord(P)-1} and
 * "does a view taken at P hold transaction t" is "is {@code ord(t) < ord(P)}", the question the
 * gate asks of a GTID set.
 *
 * <p>The axis id, in the place of a GTID's source UUID, is a name-based UUID derived from the
 * server's {@code server_uuid}: a set of positions is never equal to, nor contained in, a real GTID
 * set, and a set of positions of another server lies on another axis.
 *
 * <p>An offset is an event header's 32-bit position, so it fits the low 32 bits; a file index is
 * the decimal suffix of the file name ({@code binlog.000042} is 42), below 2^31 - 1 so that every
 * ordinal is a valid GTID transaction number.
 */
@Internal
public final class BinlogPositionAxis {

    /** Prefixes the server uuid before hashing, so the axis id never equals a server's uuid. */
    private static final String NAMESPACE = "capstan-binlog-position-axis:";

    private static final long MAX_FILE_INDEX = Integer.MAX_VALUE - 1L;
    private static final long MAX_OFFSET = 0xFFFF_FFFFL;

    /** A binlog file name: the basename, a dot, the decimal index MySQL appends. */
    private static final Pattern FILE_NAME = Pattern.compile("(.+)\\.(\\d{1,10})");

    /** One position in the binary log. */
    public record Position(long fileIndex, long offset) implements Comparable<Position> {
        public Position {
            if (fileIndex < 0 || fileIndex > MAX_FILE_INDEX) {
                throw new IllegalArgumentException("binlog file index out of range: " + fileIndex);
            }
            if (offset < 0 || offset > MAX_OFFSET) {
                throw new IllegalArgumentException("binlog offset out of range: " + offset);
            }
        }

        @Override
        public int compareTo(Position o) {
            int byFile = Long.compare(fileIndex, o.fileIndex);
            return byFile != 0 ? byFile : Long.compare(offset, o.offset);
        }
    }

    private final String serverUuid;
    private final String axisId;

    private BinlogPositionAxis(String serverUuid, String axisId) {
        this.serverUuid = serverUuid;
        this.axisId = axisId;
    }

    /** The axis of the server with this {@code server_uuid}. */
    public static BinlogPositionAxis of(String serverUuid) {
        UUID.fromString(serverUuid); // refuses what is not a uuid
        String uuid = serverUuid.toLowerCase(Locale.ROOT);
        return new BinlogPositionAxis(
                uuid,
                UUID.nameUUIDFromBytes((NAMESPACE + uuid).getBytes(StandardCharsets.US_ASCII))
                        .toString());
    }

    /**
     * The axis with this id, as a position set names it; its server uuid is not known from the id
     * (messages name the axis id instead).
     */
    public static BinlogPositionAxis withAxisId(String axisId) {
        UUID.fromString(axisId);
        return new BinlogPositionAxis("with axis id " + axisId, axisId);
    }

    public String serverUuid() {
        return serverUuid;
    }

    /** The id the axis's sets carry in the place of a GTID's source uuid. */
    public String axisId() {
        return axisId;
    }

    /** The ordinal of the transaction that starts at {@code p} (at least 1). */
    public static long ordinal(Position p) {
        // offset 0 of file 0 is no event (every file starts with its 4-byte magic number)
        return Math.max(1, (p.fileIndex() << 32) | p.offset());
    }

    /** The position an ordinal stands for. */
    public static Position position(long ordinal) {
        if (ordinal < 1) {
            throw new IllegalArgumentException("ordinal below 1: " + ordinal);
        }
        return new Position(ordinal >>> 32, ordinal & MAX_OFFSET);
    }

    /** The transaction starting at {@code p}, as a member of this axis's sets. */
    public Gtid transactionAt(Position p) {
        return Gtid.of(axisId, ordinal(p));
    }

    /**
     * Every transaction that starts before {@code p}: what a read view taken at {@code p} holds.
     */
    public GtidSet before(Position p) {
        long end = ordinal(p) - 1;
        return end < 1 ? GtidSet.empty() : GtidSet.builder().addRange(axisId, "", 1, end).build();
    }

    /**
     * Where a stream resumes after {@code processed}, a prefix {@code 1..m} of this axis: the
     * position {@code m + 1} stands for ({@code (0, 1)} for the empty set; the caller starts a file
     * at its first event).
     *
     * @throws IllegalArgumentException when the set holds another source, or is not one prefix
     */
    public Position resumeFrom(GtidSet processed) {
        if (processed.isEmpty()) {
            return position(1);
        }
        requireOnAxis(processed);
        long[] next = {0};
        int[] intervals = {0};
        processed.forEachInterval(
                (uuid, tag, first, end) -> {
                    // a tagged member, a second interval or one not from 1 is no prefix
                    intervals[0] += tag.isEmpty() && first == 1 ? 1 : 2;
                    next[0] = end; // exclusive: the first ordinal not processed
                });
        if (intervals[0] != 1) {
            throw new IllegalArgumentException(
                    "the processed positions of server " + serverUuid + " are not one prefix");
        }
        return position(next[0]);
    }

    /**
     * The first position whose transaction is not in {@code processed}: where a stream resumes. A
     * processed set may have holes (an XA prepared part held until its outcome stays outside it),
     * so the stream resumes at the first hole and skips every later transaction the set holds.
     *
     * @throws IllegalArgumentException when the set holds another source
     */
    public Position firstMissing(GtidSet processed) {
        if (processed.isEmpty()) {
            return position(1);
        }
        requireOnAxis(processed);
        return position(prefixEnd(processed)[0]);
    }

    /**
     * The first ordinal after the prefix of {@code set} that starts at 1 (1 when there is none),
     * and how many ranges lie beyond it.
     */
    private static long[] prefixEnd(GtidSet set) {
        long[] endAndLater = {1, 0};
        set.forEachInterval(
                (uuid, tag, first, end) -> {
                    if (endAndLater[1] == 0 && first <= endAndLater[0]) {
                        endAndLater[0] = Math.max(endAndLater[0], end); // exclusive end
                    } else {
                        endAndLater[1]++;
                    }
                });
        return endAndLater;
    }

    /**
     * {@code processed} plus every ordinal before {@code end} except {@code holes}: how the
     * processed set grows when the stream has read everything before {@code end}.
     */
    public GtidSet through(GtidSet processed, Position end, Collection<Gtid> holes) {
        GtidSet before = before(end);
        if (before.isEmpty() || processed.containsAll(before)) {
            return processed;
        }
        if (!holes.isEmpty()) {
            GtidSet.Builder held = GtidSet.builder();
            holes.forEach(held::add);
            before = before.subtract(held.build());
        }
        return processed.union(before);
    }

    /**
     * Whether {@code set} is a set of binlog positions (of some server's axis), not of GTIDs: an
     * axis id is a name-based (version 3) uuid, which MySQL never uses as a {@code server_uuid} (it
     * generates version 1 uuids; a hand-written one would have to copy an axis id on purpose).
     */
    public static boolean isPositionSet(GtidSet set) {
        return set.isNonEmptyWithEverySourceId(BinlogPositionAxis::isAxisId);
    }

    private void requireOnAxis(GtidSet set) {
        if (!set.sourceIds().equals(List.of(axisId))) {
            throw new IllegalArgumentException(
                    "the set is not on the binlog position axis of server " + serverUuid);
        }
    }

    /** Whether every member of {@code set} lies on this axis. */
    public boolean holds(GtidSet set) {
        return set.isEmpty() || set.sourceIds().equals(List.of(axisId));
    }

    /** The index of a binlog file name ({@code binlog.000042} is 42). */
    public static long fileIndex(String fileName) {
        Matcher m = FILE_NAME.matcher(fileName);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a binlog file name: " + fileName);
        }
        return new Position(Long.parseLong(m.group(2)), 0).fileIndex();
    }

    /** The file name of an index, as MySQL writes it: the basename, a dot, 6 digits at least. */
    public static String fileName(String basename, long fileIndex) {
        return basename + "." + String.format(Locale.ROOT, "%06d", fileIndex);
    }

    /**
     * A transaction for logs, messages and the {@code gtid} metadata of a row: on a position axis
     * {@code <file index>:<offset>} where it starts ({@code 000042:4711} is offset 4711 of {@code
     * binlog.000042}), a MariaDB GTID as MariaDB prints it ({@code 0-1-42}: {@link
     * MariaDbGtidAxes}), a GTID in MySQL's form. Never parsed back ({@link Gtid#toString()} is).
     */
    public static String readable(@Nullable Gtid gtid) {
        if (gtid == null) {
            return "none";
        }
        return isAxisId(gtid.uuid())
                ? positionText(position(gtid.transactionId()))
                : MariaDbGtidAxes.readable(gtid);
    }

    /**
     * A set for logs and messages: for positions, {@code every binlog position before <file
     * index>:<offset>} (where the stream resumes) and the count of later ranges a held XA part
     * leaves apart; a MariaDB GTID set as its position; a GTID set in MySQL's form.
     */
    public static String readable(@Nullable GtidSet set) {
        if (set == null || !isPositionSet(set)) {
            return MariaDbGtidAxes.readable(set);
        }
        long[] endAndLater = prefixEnd(set);
        String text = "every binlog position before " + positionText(position(endAndLater[0]));
        return endAndLater[1] == 0 ? text : text + " and " + endAndLater[1] + " later range(s)";
    }

    private static String positionText(Position p) {
        return String.format(Locale.ROOT, "%06d", p.fileIndex()) + ":" + p.offset();
    }

    private static boolean isAxisId(String uuid) {
        try {
            return UUID.fromString(uuid).version() == 3;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "binlog position axis of " + serverUuid;
    }
}
