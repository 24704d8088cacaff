package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;

import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.MySqlGtid;

import java.util.UUID;

/**
 * The rules for MariaDB's binlog events, in position mode ({@link PositionModeEvents},
 * docs/adr/0012, "MariaDB") and on MariaDB's GTIDs ({@link GtidModeEvents}, docs/adr/0013); the
 * facts are pinned by {@code MariaDbBinlogFactsIT}.
 *
 * <p>MariaDB starts every transaction with a MARIADB_GTID event and writes no BEGIN: without {@code
 * FL_STANDALONE} the event stands for MySQL's GTID event and its BEGIN (a body that an XID or a
 * COMMIT ends), with it for the GTID event of a self-committing statement (a DDL, ended by its
 * QUERY). XA transactions (flags {@code FL_PREPARED_XA}, {@code FL_COMPLETED_XA}) are not read in
 * this version. The binlog library reads an event number it does not know (MariaDB's compressed
 * events 165-171, START_ENCRYPTION 164, later additions) as {@code UNKNOWN}, whose contents are
 * lost: on a MariaDB binlog such an event halts.
 */
final class MariaDbEvents {

    /** MariaDB's {@code FL_PREPARED_XA}: the XA START ... XA PREPARE part of an XA transaction. */
    static final int FL_PREPARED_XA = 64;

    /** MariaDB's {@code FL_COMPLETED_XA}: an XA COMMIT or XA ROLLBACK. */
    static final int FL_COMPLETED_XA = 128;

    private MariaDbEvents() {}

    /**
     * Whether a FORMAT_DESCRIPTION's server version is a MariaDB's ({@code 10.11.6-MariaDB-log}).
     */
    static boolean isMariaDb(String serverVersion) {
        return serverVersion != null && serverVersion.contains("MariaDB");
    }

    /**
     * The GTID event the assembler takes for {@code data}, the MARIADB_GTID event of the
     * transaction {@code at} (on the axis {@code axis}: a position axis or a MariaDB GTID axis);
     * halts on an XA transaction.
     */
    static GtidEventData transactionStart(MariadbGtidEventData data, UUID axis, Gtid at) {
        int flags = data.getFlags();
        if ((flags & (FL_PREPARED_XA | FL_COMPLETED_XA)) != 0) {
            throw new CapstanHaltException(
                    HaltReason.XA_UNSUPPORTED,
                    "the MariaDB binlog holds an XA transaction (its GTID event at "
                            + BinlogPositionAxis.readable(at)
                            + " carries the "
                            + ((flags & FL_PREPARED_XA) != 0 ? "prepared" : "completed")
                            + " XA flag): XA transactions on MariaDB are not captured in this"
                            + " version, and none of its rows was emitted. Remedy: do not use XA"
                            + " transactions on the server of the captured tables (or capture"
                            + " from MySQL); then start the job without state.");
        }
        MySqlGtid gtid = new MySqlGtid(axis, at.transactionId());
        // MariaDB's event has no commit timestamps: the assembler falls back to the header's
        return (flags & MariadbGtidEventData.FL_STANDALONE) != 0
                ? new GtidEventData(gtid, (byte) 0, 0, 0, 0, 0, 0, 0, 0)
                : new BodyOpened(gtid);
    }

    /**
     * A transaction start whose event also opened the transaction's body, as MySQL's BEGIN does: a
     * statement inside is not a DDL of its own, and rows, XID or COMMIT end it.
     */
    static final class BodyOpened extends GtidEventData {
        BodyOpened(MySqlGtid gtid) {
            super(gtid, (byte) 0, 0, 0, 0, 0, 0, 0, 0);
        }
    }

    /**
     * The server kind a FORMAT_DESCRIPTION's {@code serverVersion} names; the first kind a stream
     * read ({@code known}, null before) stays, and another is another server.
     */
    static boolean serverKind(Boolean known, String serverVersion) {
        boolean named = isMariaDb(serverVersion);
        if (known != null && known != named) {
            throw otherServerKind("the binlog of a " + (named ? "MariaDB" : "MySQL") + " server");
        }
        return named;
    }

    /**
     * An event the binlog library could not name, on a MariaDB binlog {@code where} ("at
     * 000003:4711", "after MariaDB GTID position '0-1-42'").
     */
    static CapstanHaltException unknownEvent(String where) {
        return new CapstanHaltException(
                HaltReason.UNKNOWN_BINLOG_EVENT,
                "the MariaDB binlog holds an event of a type the binlog library does not know "
                        + where
                        + " (a compressed event under log_bin_compress = ON, an encrypted binlog,"
                        + " or a newer event): its contents cannot be read, and passing it could"
                        + " lose changes. Remedy: SET GLOBAL log_bin_compress = OFF (and do not"
                        + " encrypt the binlog), then start the job without state.");
    }

    /**
     * A transaction start of the other server kind than the stream's: the address leads to another
     * server than the one the job's positions were read on.
     */
    static CapstanHaltException otherServerKind(String what) {
        return new CapstanHaltException(
                HaltReason.SOURCE_IDENTITY_MISMATCH,
                "the binlog stream holds "
                        + what
                        + ": the address now leads to another server than the one the job's"
                        + " positions were read on. Remedy: point the job at its server again, or"
                        + " start it without state (a new snapshot) against the new one.");
    }
}
