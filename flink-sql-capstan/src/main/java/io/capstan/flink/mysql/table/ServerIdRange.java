package io.capstan.flink.mysql.table;

import org.apache.flink.table.api.ValidationException;

import java.io.Serializable;

/**
 * The {@code server-id} option: one replica server id or an inclusive range {@code 5400-5408}.
 *
 * <p>A range is accepted for compatibility with mysql-cdc, where each parallel reader of the binlog
 * takes its own id. capstan reads the binlog with exactly one reader (the snapshot chunks are read
 * over JDBC and need no id), so it uses the range's first id.
 */
public final class ServerIdRange implements Serializable {
    private static final long serialVersionUID = 1L;

    /** MySQL's server_id is an unsigned 32-bit number; 0 is refused for replicas. */
    static final long MAX_SERVER_ID = 4_294_967_295L;

    private final long start;
    private final long end;

    private ServerIdRange(long start, long end) {
        this.start = start;
        this.end = end;
    }

    /** Parses {@code N} or {@code N-M}; the message names the option and the accepted forms. */
    public static ServerIdRange parse(String text) {
        String trimmed = text.trim();
        int dash = trimmed.indexOf('-');
        long start;
        long end;
        if (dash < 0) {
            start = parseId(trimmed, text);
            end = start;
        } else {
            start = parseId(trimmed.substring(0, dash).trim(), text);
            end = parseId(trimmed.substring(dash + 1).trim(), text);
            if (end < start) {
                throw new ValidationException(
                        "Invalid value for option 'server-id': the range end is below its start."
                                + " Use a number such as '5400' or a range such as '5400-5408'.");
            }
        }
        return new ServerIdRange(start, end);
    }

    private static long parseId(String part, String whole) {
        long id;
        try {
            id = Long.parseLong(part);
        } catch (NumberFormatException e) {
            throw new ValidationException(
                    "Invalid value for option 'server-id': '"
                            + whole
                            + "' is neither a number nor a range. Use a number such as '5400' or a"
                            + " range such as '5400-5408'.");
        }
        if (id < 1 || id > MAX_SERVER_ID) {
            throw new ValidationException(
                    "Invalid value for option 'server-id': ids must be in 1.."
                            + MAX_SERVER_ID
                            + ". Use a number such as '5400' or a range such as '5400-5408'.");
        }
        return id;
    }

    /** The id the binlog reader uses. */
    public long first() {
        return start;
    }

    public long last() {
        return end;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ServerIdRange
                && ((ServerIdRange) o).start == start
                && ((ServerIdRange) o).end == end;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(start) * 31 + Long.hashCode(end);
    }

    @Override
    public String toString() {
        return start == end ? Long.toString(start) : start + "-" + end;
    }
}
