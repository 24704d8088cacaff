package io.capstan.flink.mysql.gtid;

import org.apache.flink.annotation.Internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A MariaDB server's position: per replication domain, the last GTID written in it ({@code
 * domain-server-seq}), as {@code @@gtid_binlog_pos} prints it. Immutable; pure.
 *
 * <p>Under {@code gtid_strict_mode} the sequence numbers of a domain grow strictly in binlog order,
 * so a position <em>holds</em> a GTID when it has the GTID's domain with a sequence number at least
 * the GTID's; server ids are not compared. They are kept all the same: a dump starts only from the
 * exact GTID of each domain, server id included.
 *
 * <p>The source carries positions as {@link GtidSet}s ({@link MariaDbGtidAxes}); this type is the
 * per-domain view of one: what a dump starts from, what the user writes as a start position, and
 * how a position is compared with a server's (docs/adr/0013).
 *
 * <p>Text: entries {@code domain-server-seq} joined by commas, domains in ascending numeric order,
 * the empty text for the empty position ({@link #toString()}). {@link #parse} also takes the
 * entries in any order, with whitespace around them. Domain and server ids are 32-bit unsigned,
 * sequence numbers at most 2^63 - 2, a MySQL transaction number's limit, so that every GTID has its
 * place in a {@link GtidSet}; MariaDB allows 2^64 - 1, no server comes near.
 */
@Internal
public final class MariaDbGtidPosition {

    /** The largest domain id and server id: MariaDB keeps both in 32 unsigned bits. */
    public static final long MAX_ID = 0xFFFF_FFFFL;

    /** The largest sequence number accepted. */
    public static final long MAX_SEQUENCE = Gtid.MAX_TRANSACTION_ID;

    private static final long[] NONE = new long[0];
    private static final MariaDbGtidPosition EMPTY = new MariaDbGtidPosition(NONE, NONE, NONE);

    /**
     * One MariaDB GTID.
     *
     * @param domain the replication domain id, 0 .. 2^32 - 1
     * @param server the id of the server that wrote it first, 0 .. 2^32 - 1
     * @param sequence its sequence number in the domain, 0 .. {@link #MAX_SEQUENCE}
     */
    public record DomainGtid(long domain, long server, long sequence) {
        public DomainGtid {
            if (domain < 0 || domain > MAX_ID) {
                throw new IllegalArgumentException(
                        "MariaDB GTID domain id out of range 0.." + MAX_ID + ": " + domain);
            }
            if (server < 0 || server > MAX_ID) {
                throw new IllegalArgumentException(
                        "MariaDB GTID server id out of range 0.." + MAX_ID + ": " + server);
            }
            if (sequence < 0 || sequence > MAX_SEQUENCE) {
                throw new IllegalArgumentException(
                        "MariaDB GTID sequence number out of range 0.."
                                + MAX_SEQUENCE
                                + ": "
                                + sequence);
            }
        }

        /** Parses one {@code domain-server-seq}; the message quotes nothing but the text. */
        public static DomainGtid parse(String text) {
            if (text == null) {
                throw new IllegalArgumentException("Invalid MariaDB GTID: null");
            }
            return MariaDbGtidText.parseEntry(text.strip(), "Invalid MariaDB GTID");
        }

        @Override
        public String toString() {
            return domain + "-" + server + "-" + sequence;
        }
    }

    // the entries, sorted by domain, one per domain
    private final long[] domains;
    private final long[] servers;
    private final long[] sequences;

    private MariaDbGtidPosition(long[] domains, long[] servers, long[] sequences) {
        this.domains = domains;
        this.servers = servers;
        this.sequences = sequences;
    }

    public static MariaDbGtidPosition empty() {
        return EMPTY;
    }

    /**
     * The position of these GTIDs, one per domain, in any order.
     *
     * @throws IllegalArgumentException for two GTIDs of one domain, naming both
     */
    public static MariaDbGtidPosition of(List<DomainGtid> gtids) {
        DomainGtid[] sorted = gtids.toArray(new DomainGtid[0]);
        Arrays.sort(sorted, (a, b) -> Long.compare(a.domain(), b.domain()));
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i].domain() == sorted[i - 1].domain()) {
                throw new IllegalArgumentException(
                        "Invalid MariaDB GTID position: domain "
                                + sorted[i].domain()
                                + " appears twice ('"
                                + sorted[i - 1]
                                + "', '"
                                + sorted[i]
                                + "'); a position has one GTID per domain"
                                + " (@@gtid_binlog_pos, not @@gtid_binlog_state)");
            }
        }
        return fromSorted(sorted);
    }

    /**
     * Parses a position as MariaDB prints it ({@code @@gtid_binlog_pos}); also takes the entries in
     * any domain order and whitespace around them. Refuses a malformed entry, a number out of
     * range, an empty entry and a domain given twice (the text of {@code @@gtid_binlog_state},
     * which lists one GTID per domain and server, is not a position). The message quotes only the
     * offending entry, cut when long.
     */
    public static MariaDbGtidPosition parse(String text) {
        return of(MariaDbGtidText.parse(text));
    }

    private static MariaDbGtidPosition fromSorted(DomainGtid[] sorted) {
        if (sorted.length == 0) {
            return EMPTY;
        }
        long[] d = new long[sorted.length];
        long[] s = new long[sorted.length];
        long[] n = new long[sorted.length];
        for (int i = 0; i < sorted.length; i++) {
            d[i] = sorted[i].domain();
            s[i] = sorted[i].server();
            n[i] = sorted[i].sequence();
        }
        return new MariaDbGtidPosition(d, s, n);
    }

    public boolean isEmpty() {
        return domains.length == 0;
    }

    /** The GTIDs, one per domain, in ascending domain order. */
    public List<DomainGtid> gtids() {
        List<DomainGtid> gtids = new ArrayList<>(domains.length);
        for (int i = 0; i < domains.length; i++) {
            gtids.add(new DomainGtid(domains[i], servers[i], sequences[i]));
        }
        return gtids;
    }

    /** This position's GTID of the domain, if the position has the domain. */
    public Optional<DomainGtid> gtidOf(long domain) {
        int i = Arrays.binarySearch(domains, domain);
        return i < 0
                ? Optional.empty()
                : Optional.of(new DomainGtid(domains[i], servers[i], sequences[i]));
    }

    /**
     * Whether this position holds the GTID: it has the GTID's domain with a sequence number at
     * least the GTID's. The server id is not compared (strict mode: one GTID per sequence number).
     */
    public boolean holds(DomainGtid gtid) {
        int i = Arrays.binarySearch(domains, gtid.domain());
        return i >= 0 && sequences[i] >= gtid.sequence();
    }

    /** Whether this position holds the GTID of every domain of {@code other}. */
    public boolean contains(MariaDbGtidPosition other) {
        for (int j = 0; j < other.domains.length; j++) {
            int i = Arrays.binarySearch(domains, other.domains[j]);
            if (i < 0 || sequences[i] < other.sequences[j]) {
                return false;
            }
        }
        return true;
    }

    /**
     * This position after one more GTID: its domain's entry becomes the GTID.
     *
     * @throws IllegalArgumentException when the position already {@link #holds} the GTID (in strict
     *     mode it cannot follow); the message names the GTID and the domain's entry
     */
    public MariaDbGtidPosition advance(DomainGtid gtid) {
        int i = Arrays.binarySearch(domains, gtid.domain());
        if (i >= 0) {
            if (sequences[i] >= gtid.sequence()) {
                throw new IllegalArgumentException(
                        "MariaDB GTID "
                                + gtid
                                + " does not follow the position's "
                                + new DomainGtid(domains[i], servers[i], sequences[i])
                                + " of domain "
                                + gtid.domain()
                                + ": sequence numbers of a domain must grow (gtid_strict_mode)");
            }
            long[] s = servers.clone();
            long[] n = sequences.clone();
            s[i] = gtid.server();
            n[i] = gtid.sequence();
            return new MariaDbGtidPosition(domains, s, n);
        }
        int at = -i - 1;
        return new MariaDbGtidPosition(
                insert(domains, at, gtid.domain()),
                insert(servers, at, gtid.server()),
                insert(sequences, at, gtid.sequence()));
    }

    private static long[] insert(long[] a, int at, long value) {
        long[] b = new long[a.length + 1];
        System.arraycopy(a, 0, b, 0, at);
        b[at] = value;
        System.arraycopy(a, at, b, at + 1, a.length - at);
        return b;
    }

    /**
     * The greatest position both contain: per domain present in both, the entry with the smaller
     * sequence number, its server id with it (this one's on a tie). A domain only one of them has
     * is left out: nothing of it is held by both.
     */
    public MariaDbGtidPosition meet(MariaDbGtidPosition other) {
        List<DomainGtid> both = new ArrayList<>();
        for (int i = 0; i < domains.length; i++) {
            int j = Arrays.binarySearch(other.domains, domains[i]);
            if (j >= 0) {
                both.add(
                        other.sequences[j] < sequences[i]
                                ? new DomainGtid(domains[i], other.servers[j], other.sequences[j])
                                : new DomainGtid(domains[i], servers[i], sequences[i]));
            }
        }
        return fromSorted(both.toArray(new DomainGtid[0]));
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof MariaDbGtidPosition)) {
            return false;
        }
        MariaDbGtidPosition p = (MariaDbGtidPosition) o;
        return Arrays.equals(domains, p.domains)
                && Arrays.equals(servers, p.servers)
                && Arrays.equals(sequences, p.sequences);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(domains) + Arrays.hashCode(servers))
                + Arrays.hashCode(sequences);
    }

    /** MariaDB's text: {@code domain-server-seq} entries in ascending domain order. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < domains.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(domains[i]).append('-').append(servers[i]).append('-').append(sequences[i]);
        }
        return sb.toString();
    }
}
