package io.capstan.flink.mysql.gtid;

import io.capstan.flink.mysql.gtid.MariaDbGtidPosition.DomainGtid;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * MariaDB GTIDs as a {@link GtidSet}, so that the gate, the splits, the state and their serializers
 * carry them as they carry MySQL's (docs/adr/0013, decision 5): every (replication domain, server
 * id) pair is an <i>axis</i>, and a MariaDB GTID {@code d-s-n} is the transaction {@code n} on the
 * axis of {@code (d, s)}.
 *
 * <p>A server's {@code @@gtid_binlog_state} lists the last GTID of each pair; as a set it holds
 * {@code 1..n} on each pair's axis ({@link #ofState}). Under {@code gtid_strict_mode} the sequence
 * numbers of a domain grow in binlog order, whichever server writes, so for a state S and a GTID
 * {@code t = d-s-n}: t was written before S exactly when S's set contains t. (If t lies before S,
 * s's last GTID in S is t or a later one of s, so at least n; if t lies after S, n is above every
 * sequence number of d in S.) The processed set grows in the same shape ({@link #advance}).
 *
 * <p>The axis id, in the place of a GTID's source uuid, spells the pair: {@code
 * DDDDDDDD-ca57-8db0-8db0-0000SSSSSSSS}, the domain and the server id in hexadecimal. Its version
 * nibble 8 is one no MySQL server uuid (version 1) and no position axis ({@link
 * BinlogPositionAxis}, version 3) has, so such a set is never equal to, nor contained in, a set of
 * another kind, and the exact GTIDs a dump starts from come back from it ({@link #position}).
 */
@Internal
public final class MariaDbGtidAxes {

    /** The fixed low half of an axis id's most significant bits: {@code -ca57-8db0}. */
    private static final long MOST_MARK = 0xCA57_8DB0L;

    /** The fixed high half of an axis id's least significant bits: {@code -8db0-0000}. */
    private static final long LEAST_MARK = 0x8DB0_0000L;

    private static final long LOW_32 = 0xFFFF_FFFFL;

    /** The fixed text between the domain and the server id of an axis id. */
    private static final String MARK_TEXT = "-ca57-8db0-8db0-0000";

    private MariaDbGtidAxes() {}

    /** The axis id of a (domain, server id) pair. */
    public static String axisId(long domain, long server) {
        new DomainGtid(domain, server, 0); // refuses ids out of range
        return new UUID((domain << 32) | MOST_MARK, (LEAST_MARK << 32) | server).toString();
    }

    /**
     * Whether {@code id} is the axis id of a pair; a text comparison without parsing, as it runs
     * for every row's GTID metadata ({@link BinlogPositionAxis#readable(Gtid)}).
     */
    public static boolean isAxisId(@Nullable String id) {
        return id != null
                && id.length() == 36
                && id.regionMatches(true, 8, MARK_TEXT, 0, MARK_TEXT.length())
                && hex(id, 0, 8)
                && hex(id, 28, 36);
    }

    private static boolean hex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            boolean hex =
                    (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            if (!hex) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code set} is a non-empty set of MariaDB GTIDs (every source id an axis id). */
    public static boolean isMariaDbSet(GtidSet set) {
        return set.isNonEmptyWithEverySourceId(MariaDbGtidAxes::isAxisId);
    }

    /**
     * The GTID as a member of the sets.
     *
     * @throws IllegalArgumentException for sequence number 0, which no transaction has
     */
    public static Gtid gtid(DomainGtid g) {
        if (g.sequence() < 1) {
            throw new IllegalArgumentException("MariaDB GTID " + g + ": no transaction has seq 0");
        }
        return Gtid.of(axisId(g.domain(), g.server()), g.sequence());
    }

    /** The MariaDB GTID a member of the sets stands for. */
    public static DomainGtid domainGtid(Gtid g) {
        UUID u = requireAxis(g.uuid());
        return new DomainGtid(
                u.getMostSignificantBits() >>> 32,
                u.getLeastSignificantBits() & LOW_32,
                g.transactionId());
    }

    /**
     * A server's {@code @@gtid_binlog_state} (the last GTID of each domain and server id pair) as a
     * set; a position's text ({@code @@gtid_binlog_pos}) reads the same way, one pair per domain.
     *
     * @throws IllegalArgumentException for malformed text or a pair given twice, quoting only the
     *     offending entry
     */
    public static GtidSet ofState(String text) {
        List<DomainGtid> entries = MariaDbGtidText.parse(text);
        Set<String> pairs = new HashSet<>();
        GtidSet.Builder b = GtidSet.builder();
        for (DomainGtid g : entries) {
            String axis = axisId(g.domain(), g.server());
            if (!pairs.add(axis)) {
                throw new IllegalArgumentException(
                        "Invalid MariaDB GTID state: domain "
                                + g.domain()
                                + " and server "
                                + g.server()
                                + " appear twice");
            }
            if (g.sequence() >= 1) {
                b.addRange(axis, "", 1, g.sequence());
            }
        }
        return b.build();
    }

    /** A position as a set: each domain's GTID {@code d-s-n} as {@code 1..n} on its pair's axis. */
    public static GtidSet of(MariaDbGtidPosition position) {
        return ofState(position.toString());
    }

    /**
     * The position of a set: per domain, the GTID with the largest sequence number; what a dump
     * starts from ({@code @slave_connect_state}), and how messages print a set.
     *
     * @throws IllegalArgumentException when a source id of the set is no axis id
     */
    public static MariaDbGtidPosition position(GtidSet set) {
        TreeMap<Long, DomainGtid> last = new TreeMap<>();
        set.forEachInterval(
                (uuid, tag, first, end) -> {
                    UUID u = requireAxis(uuid);
                    DomainGtid g =
                            new DomainGtid(
                                    u.getMostSignificantBits() >>> 32,
                                    u.getLeastSignificantBits() & LOW_32,
                                    end - 1);
                    last.merge(g.domain(), g, (a, c) -> a.sequence() >= c.sequence() ? a : c);
                });
        return MariaDbGtidPosition.of(new ArrayList<>(last.values()));
    }

    /**
     * The set after the transaction {@code gtid} ended: everything of its pair up to it, so that
     * the set keeps the shape of a state (a sequence number skipped by {@code gtid_seq_no}, or
     * written by another server of the domain, leaves no hole).
     */
    public static GtidSet advance(GtidSet set, Gtid gtid) {
        requireAxis(gtid.uuid());
        return set.union(
                GtidSet.builder().addRange(gtid.uuid(), "", 1, gtid.transactionId()).build());
    }

    /**
     * How far {@code server} is ahead of {@code job}: per domain, the sequence numbers between
     * their positions, summed (docs/adr/0013; skipped sequence numbers count too).
     */
    public static long sequencesAhead(GtidSet server, GtidSet job) {
        MariaDbGtidPosition jobs = job.isEmpty() ? MariaDbGtidPosition.empty() : position(job);
        long ahead = 0;
        for (DomainGtid g : position(server).gtids()) {
            long done = jobs.gtidOf(g.domain()).map(DomainGtid::sequence).orElse(0L);
            ahead += Math.max(0, g.sequence() - done);
        }
        return ahead;
    }

    /** A GTID for logs and messages: MariaDB's {@code d-s-n} for an axis GTID. */
    public static String readable(@Nullable Gtid gtid) {
        if (gtid == null) {
            return "none";
        }
        return isAxisId(gtid.uuid()) ? domainGtid(gtid).toString() : gtid.toString();
    }

    /** A set for logs and messages: a MariaDB set as its position's text ({@link #position}). */
    public static String readable(@Nullable GtidSet set) {
        if (set == null || !isMariaDbSet(set)) {
            return String.valueOf(set);
        }
        String text = position(set).toString();
        return "MariaDB GTID position '" + text + "'";
    }

    private static UUID requireAxis(String id) {
        if (!isAxisId(id)) {
            throw new IllegalArgumentException(
                    String.format(Locale.ROOT, "%s is no MariaDB GTID axis id", id));
        }
        return UUID.fromString(id);
    }
}
