package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.annotation.Internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The GTID set a binlog file and position denote on the server: the file's Previous-GTIDs plus the
 * GTID of each transaction written to the file before the position, read with {@code SHOW BINARY
 * LOGS} (is the file still there, how long is it) and {@code SHOW BINLOG EVENTS IN 'file'}. The
 * position must be where a transaction starts (a GTID event), before the file's first transaction
 * (4, the file's start, included), or the file's end; a position inside a transaction halts, since
 * part of it would be skipped. Asked only when a new job plans its binlog split.
 */
@Internal
final class BinlogPositionTranslation {

    private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9._-]+");
    private static final Pattern GTID_NEXT = Pattern.compile("'([0-9a-fA-F-]+):(\\d+)'");

    /** Events read per statement. */
    private static final int PAGE = 1_000;

    private static final String USE_GTID_SET =
            " Use 'scan.startup.specific-offset.gtid-set' (DataStream:"
                    + " StartupOptions.gtidSet) instead, or another binlog position.";

    private BinlogPositionTranslation() {}

    static GtidSet gtidSetBefore(Connection c, String file, long pos) throws SQLException {
        String name = file.trim();
        if (!FILE_NAME.matcher(name).matches()) {
            throw refused(name, pos, "the file name is not a binlog file name.");
        }
        try (Statement s = c.createStatement()) {
            long size = fileSize(s, name);
            if (size < 0) {
                throw new CapstanHaltException(
                        HaltReason.DATA_GAP,
                        "The start position 'scan.startup.specific-offset.file' = '"
                                + name
                                + "' is not on the server any more (purged, or never written):"
                                + " the transactions from it on cannot be read. Start from a"
                                + " position the server still has (SHOW BINARY LOGS), or with a"
                                + " snapshot.");
            }
            if (pos < 4 || pos > size) {
                throw refused(name, pos, "the position is outside the file (4.." + size + ").");
            }
            return scan(s, name, pos, size);
        }
    }

    /** The file's length, or -1 when the server does not list it. */
    private static long fileSize(Statement s, String file) throws SQLException {
        try (ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
            while (rs.next()) {
                if (rs.getString(1).equals(file)) {
                    return rs.getLong(2);
                }
            }
        }
        return -1;
    }

    private static GtidSet scan(Statement s, String file, long pos, long size) throws SQLException {
        GtidSet previous = null;
        GtidSet.Builder inFile = GtidSet.builder();
        boolean atBoundary = pos == size;
        boolean transactionSeen = false;
        // Read in pages, from the file's start to the position only: one statement without a
        // LIMIT would bring the whole file (often a gigabyte) into memory. The name is checked
        // against FILE_NAME: SHOW BINLOG EVENTS takes no parameters.
        long from = 4;
        boolean more = true;
        while (more) {
            more = false;
            try (ResultSet rs =
                    s.executeQuery(
                            "SHOW BINLOG EVENTS IN '"
                                    + file
                                    + "' FROM "
                                    + from
                                    + " LIMIT "
                                    + PAGE)) {
                while (rs.next()) {
                    long at = rs.getLong("Pos");
                    String type = rs.getString("Event_type");
                    boolean header = type.equals("Format_desc") || type.equals("Previous_gtids");
                    if (at >= pos && !(header && previous == null)) {
                        // A position before the Previous-GTIDs event (4, the file's start, as
                        // mysql-cdc's examples use) is before the file's first transaction: the
                        // header is read past it.
                        atBoundary |= at == pos && type.equals("Gtid");
                        break;
                    }
                    String info = rs.getString("Info");
                    if (type.equals("Previous_gtids")) {
                        previous = GtidSet.parse(info.replaceAll("\\s", ""));
                    } else if (type.equals("Gtid")) {
                        transactionSeen = true;
                        inFile.add(gtid(file, pos, info));
                    } else if (type.equals("Anonymous_Gtid")) {
                        throw refused(
                                file,
                                pos,
                                "a transaction before the position was written without a GTID.");
                    }
                    from = rs.getLong("End_log_pos");
                    more = rs.isLast();
                }
            }
        }
        if (previous == null) {
            throw refused(file, pos, "the file has no Previous-GTIDs event: is GTID mode on?");
        }
        if (!atBoundary && transactionSeen) {
            throw refused(file, pos, "the position is inside a transaction, not where one starts.");
        }
        return previous.union(inFile.build());
    }

    private static Gtid gtid(String file, long pos, String gtidNextStatement) {
        Matcher m = GTID_NEXT.matcher(gtidNextStatement);
        if (!m.find()) {
            throw refused(file, pos, "the file holds a GTID event capstan cannot read.");
        }
        return Gtid.of(m.group(1), Long.parseLong(m.group(2)));
    }

    private static CapstanHaltException refused(String file, long pos, String why) {
        return new CapstanHaltException(
                HaltReason.INVALID_START_POSITION,
                "The start position 'scan.startup.specific-offset.file' = '"
                        + file
                        + "', '.pos' = "
                        + pos
                        + " cannot be translated into the GTID set it denotes: "
                        + why
                        + USE_GTID_SET);
    }
}
