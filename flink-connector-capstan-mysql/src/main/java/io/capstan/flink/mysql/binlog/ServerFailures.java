package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;

import com.github.shyiko.mysql.binlog.network.AuthenticationException;
import com.github.shyiko.mysql.binlog.network.ServerException;

import java.io.EOFException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.util.Locale;

/**
 * Classifies why a binlog connection ended: a halt (the server refuses to serve our position, or
 * another replica took our server id), or a transient fault worth a reconnect. MySQL reports the
 * dump's fatal conditions as error 1236 (ER_MASTER_FATAL_ERROR_READING_BINLOG) with a message that
 * names the cause (MariaDB too, in its own words); those messages carry positions and file names,
 * never row values.
 */
final class ServerFailures {

    static final int ER_MASTER_FATAL_ERROR_READING_BINLOG = 1236;
    static final int ER_ACCESS_DENIED = 1045;
    static final int ER_SPECIFIC_ACCESS_DENIED = 1227;

    private ServerFailures() {}

    /** The halt for {@code failure}, or null when it is transient. */
    static CapstanHaltException haltFor(
            Throwable failure, BinlogStartPosition position, long serverId, String address) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof CapstanHaltException) {
                return (CapstanHaltException) t;
            }
            if (t instanceof AuthenticationException) {
                return new CapstanHaltException(
                        HaltReason.INVALID_CONFIGURATION,
                        "the binlog connection to "
                                + address
                                + " was refused at authentication (error "
                                + ((AuthenticationException) t).getErrorCode()
                                + "). Remedy: check the username"
                                + " and password, and that the user's authentication plugin is"
                                + " caching_sha2_password or mysql_native_password.");
            }
            if (t instanceof ServerException) {
                return haltFor((ServerException) t, position, serverId, address);
            }
        }
        return null;
    }

    /**
     * Whether {@code failure} is a read from the server's connection that failed (reset, closed,
     * timed out), however deeply the binlog library or a deserializer wrapped it. The library
     * treats such a failure as a lost connection only when it is the direct cause of a decoding
     * failure; deeper, it would report it as an undecodable event, although the event was never
     * read whole and reading it again from the resume position is exact.
     */
    static boolean isLostConnection(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SocketException
                    || t instanceof InterruptedIOException // SocketTimeoutException
                    || t instanceof EOFException) {
                return true;
            }
        }
        return false;
    }

    /** The class name of the failure's innermost cause: names what broke, never a value. */
    static String rootCauseClass(Throwable failure) {
        Throwable t = failure;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getClass().getName();
    }

    private static CapstanHaltException haltFor(
            ServerException e, BinlogStartPosition position, long serverId, String address) {
        String message = String.valueOf(e.getMessage());
        String lower = message.toLowerCase(Locale.ROOT);
        if (e.getErrorCode() == ER_SPECIFIC_ACCESS_DENIED || e.getErrorCode() == ER_ACCESS_DENIED) {
            return new CapstanHaltException(
                    HaltReason.MISSING_PRIVILEGE,
                    "the server at "
                            + address
                            + " refused the binlog dump (error "
                            + e.getErrorCode()
                            + "). Remedy: GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO the connector user.");
        }
        if (e.getErrorCode() != ER_MASTER_FATAL_ERROR_READING_BINLOG) {
            return null;
        }
        if (lower.contains("same server_uuid/server_id") || lower.contains("same server_id")) {
            return new CapstanHaltException(
                    HaltReason.SERVER_ID_CONFLICT,
                    "another replica connected to "
                            + address
                            + " with this job's server id "
                            + serverId
                            + ", and the server closed this job's binlog connection in its favour. Remedy: give"
                            + " every job and replica of this server its own server id (option server-id), then"
                            + " restart from the last checkpoint.");
        }
        if (lower.contains("purged")) {
            return new CapstanHaltException(
                    HaltReason.DATA_GAP,
                    "the server at "
                            + address
                            + " no longer holds transactions needed to resume from "
                            + BinlogPositionAxis.readable(position.processed())
                            + " (server says: "
                            + message
                            + "). Remedy: start without"
                            + " state (a new snapshot), and keep binlogs longer (binlog_expire_logs_seconds)"
                            + " than the job may be down.");
        }
        if (lower.contains("more gtids than")
                || lower.contains("has more gtids")
                // MariaDB: a GTID of the position it never wrote, or wrote under another server id
                || lower.contains("not in the master's binlog")) {
            return new CapstanHaltException(
                    HaltReason.SOURCE_IDENTITY_MISMATCH,
                    "the resume position "
                            + BinlogPositionAxis.readable(position.processed())
                            + " contains transactions the server at "
                            + address
                            + " never executed (server says: "
                            + message
                            + "). Remedy: point the job"
                            + " at the server the position came from, or start without state.");
        }
        return null; // other fatal reading errors: retried within the reconnect budget
    }

    /** An event the streamer could not process (never the event itself: it may hold row values). */
    static CapstanHaltException unprocessable(Object eventType, RuntimeException e) {
        return new CapstanHaltException(
                HaltReason.UNDECODABLE_COLUMN,
                "a "
                        + eventType
                        + " event could not be processed ("
                        + e.getClass().getName()
                        + "). Remedy: report this with the table's DDL; restart from"
                        + " the last checkpoint after a fix.");
    }

    /** An event the binlog library could not decode, after {@code position}. */
    static CapstanHaltException undecodable(BinlogStartPosition position, Exception e) {
        return new CapstanHaltException(
                HaltReason.UNDECODABLE_COLUMN,
                "a binlog event after "
                        + position
                        + " could not be decoded ("
                        + rootCauseClass(e)
                        + "). Remedy: report this with the captured tables' DDL;"
                        + " restart from the last checkpoint after a fix.",
                null);
    }
}
