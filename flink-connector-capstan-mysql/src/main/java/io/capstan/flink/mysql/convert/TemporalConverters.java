package io.capstan.flink.mysql.convert;

import org.apache.flink.table.data.TimestampData;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.DateTimeException;
import java.time.LocalDate;

/**
 * DATE, TIME, DATETIME, TIMESTAMP and YEAR.
 *
 * <p>JDBC reads rely on the session settings of {@code JdbcConnections}: session time zone UTC
 * (TIMESTAMP values arrive as UTC wall clock) and {@code zeroDateTimeBehavior=CONVERT_TO_NULL}.
 */
final class TemporalConverters {

    private TemporalConverters() {}

    /** DATE → Integer days since 1970-01-01. */
    static final class Date extends ColumnConverter {
        @Override
        Object fromBinlog(Object raw) {
            return ((Number) raw).intValue();
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            LocalDate d;
            try {
                d = rs.getObject(i, LocalDate.class);
            } catch (DateTimeException | SQLException e) {
                // A zero month or day, or an invalid day (ALLOW_INVALID_DATES): read the text.
                Long micros = DateText.micros(rs.getBytes(i));
                return micros == null ? null : (int) Math.floorDiv(micros, 86_400_000_000L);
            }
            return d == null ? null : (int) d.toEpochDay();
        }
    }

    /** TIME(fsp) → Long signed microseconds (may be negative or exceed 24 hours). */
    static final class Time extends ColumnConverter {
        @Override
        Object fromBinlog(Object raw) {
            return ((Number) raw).longValue();
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            // getString/getTime lose the sign of '-00:..' and cannot hold > 24h: read the wire
            // bytes.
            byte[] b = rs.getBytes(i);
            return b == null ? null : TimeText.micros(b);
        }
    }

    /**
     * DATETIME(p) and TIMESTAMP(p) → TimestampData. Both paths carry the same micros: a DATETIME's
     * wall clock (no time zone applied), and for a TIMESTAMP the instant (TIMESTAMP_LTZ) — the
     * binlog carries epoch seconds, JDBC reads the UTC wall clock of the UTC session.
     */
    static final class DateTime extends ColumnConverter {
        @Override
        Object fromBinlog(Object raw) {
            return fromMicros(((Number) raw).longValue());
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            return fromWireBytes(rs, i);
        }
    }

    /** YEAR → Integer (0 for the zero year). */
    static final class Year extends ColumnConverter {
        @Override
        Object fromBinlog(Object raw) {
            return ((Number) raw).intValue();
        }

        @Override
        Object fromJdbc(ResultSet rs, int i) throws SQLException {
            int v = rs.getInt(i);
            return rs.wasNull() ? null : v;
        }
    }

    /**
     * DATETIME/TIMESTAMP from the value's wire bytes, parsed like the binlog's cells: no
     * LocalDateTime, no driver time zone logic (the session is UTC, so TIMESTAMP text is the UTC
     * wall clock), and zero or invalid dates handled in one place (null for a zero month or day,
     * invalid days counted on leniently). The driver's getObject costs several times more per cell.
     */
    private static TimestampData fromWireBytes(ResultSet rs, int i) throws SQLException {
        Long micros = DateText.micros(rs.getBytes(i));
        return micros == null ? null : fromMicros(micros);
    }

    static TimestampData fromMicros(long micros) {
        long millis = Math.floorDiv(micros, 1000L);
        int nanosOfMilli = (int) Math.floorMod(micros, 1000L) * 1000;
        return TimestampData.fromEpochMillis(millis, nanosOfMilli);
    }
}
