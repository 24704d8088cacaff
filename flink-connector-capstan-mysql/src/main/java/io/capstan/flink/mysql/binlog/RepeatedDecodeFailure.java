package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogStartPosition;

import com.github.shyiko.mysql.binlog.event.EventHeader;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializationException;

import java.util.Objects;

/**
 * Tells an event that never decodes from a connection lost while reading one.
 *
 * <p>The binlog library reports an event whose decoding reads past its end (an EOF inside the
 * event) as a lost connection, which is what a network cut in the middle of an event looks like
 * too. So one such failure reconnects; the same event failing again and again from the same resume
 * position, with no progress in between, is the event, and halts ({@code undecodable_column},
 * naming the event type and position) instead of reconnecting until the budget is spent.
 */
final class RepeatedDecodeFailure {

    /** Failures of one event in a row that make it undecodable rather than a network fault. */
    static final int LIMIT = 3;

    private String lastEvent;
    private int inARow;

    /**
     * Records how a connection from {@code position} ended; returns the halt when the same event
     * has now failed to decode {@link #LIMIT} times in a row, else null.
     */
    CapstanHaltException afterFailure(Exception cause, BinlogStartPosition position) {
        EventDataDeserializationException d = decodeFailure(cause);
        if (d == null) {
            lastEvent = null;
            inARow = 0;
            return null;
        }
        String event = describe(d.getEventHeader()) + " after " + position;
        inARow = Objects.equals(event, lastEvent) ? inARow + 1 : 1;
        lastEvent = event;
        if (inARow < LIMIT) {
            return null;
        }
        return new CapstanHaltException(
                HaltReason.UNDECODABLE_COLUMN,
                "the binlog event "
                        + event
                        + " failed to decode "
                        + inARow
                        + " times in a row ("
                        + ServerFailures.rootCauseClass(d)
                        + "): it is the event, not the network. Remedy: report this with the"
                        + " captured tables' DDL; restart from the last checkpoint after a fix.",
                null);
    }

    private static EventDataDeserializationException decodeFailure(Throwable t) {
        for (; t != null; t = t.getCause()) {
            if (t instanceof EventDataDeserializationException) {
                return (EventDataDeserializationException) t;
            }
        }
        return null;
    }

    /** The event's type and end position: a header carries no row values. */
    private static String describe(EventHeader h) {
        if (h == null) {
            return "(no header)";
        }
        String type = h.getEventType() == null ? "unknown" : h.getEventType().name();
        return h instanceof EventHeaderV4
                ? type + " ending at " + ((EventHeaderV4) h).getNextPosition()
                : type;
    }
}
