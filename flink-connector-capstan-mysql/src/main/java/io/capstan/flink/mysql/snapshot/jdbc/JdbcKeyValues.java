package io.capstan.flink.mysql.snapshot.jdbc;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.CollatedString;
import io.capstan.flink.mysql.snapshot.key.KeyColumn;
import io.capstan.flink.mysql.snapshot.key.KeyKind;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * Moves chunk key values between JDBC and their Flink internal form, by column kind: reads the key
 * columns of a result row into a {@link KeyTuple}, and binds a tuple's values as statement
 * parameters so that the server compares them exactly as it compares the column (a DATE as a date,
 * never as the integer days that carry it).
 *
 * <p>Internal forms: TINYINT Byte, TINYINT UNSIGNED/SMALLINT Short, SMALLINT UNSIGNED/MEDIUMINT/INT
 * Integer, INT UNSIGNED/BIGINT Long, BIGINT UNSIGNED DecimalData(20,0), DECIMAL DecimalData, DATE
 * Integer days, TIME Long microseconds, DATETIME/TIMESTAMP TimestampData, YEAR Integer,
 * BINARY/VARBINARY byte[], BIT(1) Boolean, BIT(n) byte[].
 */
@Internal
public final class JdbcKeyValues {

    private JdbcKeyValues() {}

    /**
     * Reads the key selected by {@link ChunkKey#selectList()} from result columns {@code
     * firstColumn} on (1-based): the key columns, then the weights of its collated columns.
     */
    public static KeyTuple read(ChunkKey key, ResultSet rs, int firstColumn) throws SQLException {
        Object[] values = new Object[key.arity()];
        int weightColumn = firstColumn + values.length;
        for (int i = 0; i < values.length; i++) {
            values[i] = readValue(key.table(), key.column(i), rs, firstColumn + i);
            if (key.column(i).kind() == KeyKind.STRING_COLLATED) {
                values[i] = weighed(key, key.column(i), (StringData) values[i], rs, weightColumn++);
            }
        }
        return KeyTuple.of(values);
    }

    private static CollatedString weighed(
            ChunkKey key, KeyColumn c, StringData text, ResultSet rs, int weightColumn)
            throws SQLException {
        byte[] weight = rs.getBytes(weightColumn);
        if (weight == null) {
            throw new CapstanHaltException(
                    HaltReason.UNSUPPORTED_CHUNK_KEY,
                    "table "
                            + key.table()
                            + ": the server gave no sort weight (WEIGHT_STRING) for a value of"
                            + " key column "
                            + c.name()
                            + " in collation "
                            + c.collation().name());
        }
        return new CollatedString(text, weight);
    }

    /**
     * A boundary is bound back as text: a value whose bytes its character set's decoder could not
     * map (latin1's five unassigned bytes, an invalid multibyte sequence) would come back as {@code
     * ?}, and the server's chunk ranges would disagree with the weights the stream compares (rows
     * near the boundary read twice or not at all).
     */
    private static CapstanHaltException lossyBoundary(TableId table, KeyColumn c) {
        return new CapstanHaltException(
                HaltReason.UNSUPPORTED_CHUNK_KEY,
                "table "
                        + table
                        + ": a chunk boundary of key column "
                        + c.name()
                        + " (character set "
                        + c.collation().charset()
                        + ") holds bytes that character set cannot decode exactly (e.g. latin1's"
                        + " unassigned 0x81, 0x8D, 0x8F, 0x90, 0x9D, or an invalid multibyte"
                        + " sequence), so it cannot bound a chunk exactly. Remedy: choose another"
                        + " chunk key column with 'scan.incremental.snapshot.chunk.key-column'"
                        + " (DataStream: chunkKeyColumn), or store the column in utf8mb4 or as"
                        + " VARBINARY.");
    }

    static Object readValue(TableId table, KeyColumn c, ResultSet rs, int col) throws SQLException {
        try {
            return readKnownValue(table, c, rs, col);
        } catch (java.time.DateTimeException | IllegalArgumentException e) {
            // e.g. an invalid date the driver refuses; its message would quote the value (the
            // no-values rule).
            throw new SQLException(
                    "table "
                            + table
                            + ": key column "
                            + c.name()
                            + " holds a value"
                            + " that cannot be read as "
                            + c.dataType()
                            + " ("
                            + e.getClass().getSimpleName()
                            + ")");
        }
    }

    private static Object readKnownValue(TableId table, KeyColumn c, ResultSet rs, int col)
            throws SQLException {
        Object v;
        switch (c.kind()) {
            case INTEGER:
                v = readInteger(c, rs, col);
                break;
            case DECIMAL:
                BigDecimal bd = rs.getBigDecimal(col);
                v = bd == null ? null : DecimalData.fromBigDecimal(bd, c.length(), c.scale());
                break;
            case DATE:
                LocalDate d = rs.getObject(col, LocalDate.class);
                v = d == null ? null : (int) d.toEpochDay();
                break;
            case TIME:
                String t = rs.getString(col);
                v = t == null ? null : parseTimeMicros(t);
                break;
            case DATETIME:
            case TIMESTAMP:
                LocalDateTime ldt = rs.getObject(col, LocalDateTime.class);
                v = ldt == null ? null : TimestampData.fromLocalDateTime(ldt);
                break;
            case YEAR:
                int y = rs.getInt(col);
                v = rs.wasNull() ? null : y;
                break;
            case BINARY:
            case VARBINARY:
                v = rs.getBytes(col);
                break;
            case BIT:
                if (c.length() == 1) {
                    boolean b = rs.getBoolean(col);
                    v = rs.wasNull() ? null : b;
                } else {
                    v = rs.getBytes(col);
                }
                break;
            case STRING_PAD_SPACE:
                // UTF-8 (the connection's result character set), as RowConverter wraps it.
                byte[] text = rs.getBytes(col);
                v = text == null ? null : StringData.fromBytes(text);
                break;
            case STRING_COLLATED: // the text here; read() adds the weight
                // Decoded by the driver from the column's own character set (latin1 is sent as
                // stored: its bytes are not UTF-8).
                String s = rs.getString(col);
                if (s != null && !c.collation().decodesLosslessly() && s.indexOf('\uFFFD') >= 0) {
                    throw lossyBoundary(table, c);
                }
                v = s == null ? null : StringData.fromString(s);
                break;
            default:
                throw new IllegalStateException("unhandled key kind " + c.kind());
        }
        if (v == null) {
            // A NOT NULL key reads as NULL only for a zero date (read as NULL by the driver).
            throw new CapstanHaltException(
                    HaltReason.UNSUPPORTED_CHUNK_KEY,
                    "table "
                            + table
                            + ": key column "
                            + c.name()
                            + " holds a value that reads"
                            + " as NULL (a zero date?), which cannot bound a chunk; use a chunk"
                            + " key column without zero dates");
        }
        return v;
    }

    private static Object readInteger(KeyColumn c, ResultSet rs, int col) throws SQLException {
        if ("bigint".equals(c.dataType()) && c.unsigned()) {
            BigDecimal bd = rs.getBigDecimal(col);
            return bd == null ? null : DecimalData.fromBigDecimal(bd, 20, 0);
        }
        long l = rs.getLong(col);
        if (rs.wasNull()) {
            return null;
        }
        switch (c.dataType()) {
            case "tinyint":
                return c.unsigned() ? (Object) (short) l : (Object) (byte) l;
            case "smallint":
                return c.unsigned() ? (Object) (int) l : (Object) (short) l;
            case "mediumint":
            case "int":
            case "integer":
                return c.unsigned() ? (Object) l : (Object) (int) l;
            default:
                return l;
        }
    }

    /** Binds one value of the given column as parameter {@code index}. */
    public static void bindValue(KeyColumn c, Object v, PreparedStatement ps, int index)
            throws SQLException {
        switch (c.kind()) {
            case INTEGER:
            case DECIMAL:
            case YEAR:
                if (v instanceof DecimalData) {
                    ps.setBigDecimal(index, ((DecimalData) v).toBigDecimal());
                } else {
                    ps.setLong(index, ((Number) v).longValue());
                }
                break;
            case DATE:
                ps.setObject(index, LocalDate.ofEpochDay(((Number) v).longValue()));
                break;
            case TIME:
                ps.setString(index, formatTimeMicros(timeMicros(v)));
                break;
            case DATETIME:
            case TIMESTAMP:
                ps.setObject(index, ((TimestampData) v).toLocalDateTime());
                break;
            case BINARY:
            case VARBINARY:
                ps.setBytes(index, (byte[]) v);
                break;
            case BIT:
                if (v instanceof Boolean) {
                    ps.setLong(index, ((Boolean) v) ? 1 : 0);
                } else {
                    // As a number: bytes bound over the binary protocol compare as a string, not
                    // as the bit value.
                    BigInteger bits = new BigInteger(1, (byte[]) v);
                    if (bits.bitLength() < Long.SIZE) {
                        ps.setLong(index, bits.longValue());
                    } else {
                        ps.setBigDecimal(index, new BigDecimal(bits));
                    }
                }
                break;
            case STRING_PAD_SPACE:
                ps.setString(index, v.toString());
                break;
            case STRING_COLLATED:
                ps.setString(index, ((CollatedString) v).text().toString());
                break;
            default:
                throw new IllegalStateException("unhandled key kind " + c.kind());
        }
    }

    private static long timeMicros(Object v) {
        return v instanceof Integer ? ((Integer) v) * 1000L : (Long) v;
    }

    /** Parses MySQL's TIME text {@code [-]H+:MM:SS[.f+]} into signed microseconds. */
    static long parseTimeMicros(String text) {
        boolean negative = text.startsWith("-");
        String s = negative ? text.substring(1) : text;
        String[] hms = s.split(":");
        long hours = Long.parseLong(hms[0]);
        long minutes = Long.parseLong(hms[1]);
        String secPart = hms[2];
        long seconds;
        long micros = 0;
        int dot = secPart.indexOf('.');
        if (dot >= 0) {
            seconds = Long.parseLong(secPart.substring(0, dot));
            String frac = (secPart.substring(dot + 1) + "000000").substring(0, 6);
            micros = Long.parseLong(frac);
        } else {
            seconds = Long.parseLong(secPart);
        }
        long total = ((hours * 60 + minutes) * 60 + seconds) * 1_000_000L + micros;
        return negative ? -total : total;
    }

    /** Formats signed microseconds as MySQL TIME text with six fractional digits. */
    static String formatTimeMicros(long micros) {
        StringBuilder sb = new StringBuilder();
        long m = micros;
        if (m < 0) {
            sb.append('-');
            m = -m;
        }
        long fraction = m % 1_000_000L;
        long totalSeconds = m / 1_000_000L;
        long hours = totalSeconds / 3600;
        long minutes = (totalSeconds / 60) % 60;
        long seconds = totalSeconds % 60;
        sb.append(hours).append(':');
        if (minutes < 10) {
            sb.append('0');
        }
        sb.append(minutes).append(':');
        if (seconds < 10) {
            sb.append('0');
        }
        sb.append(seconds).append('.');
        String f = Long.toString(fraction);
        for (int i = f.length(); i < 6; i++) {
            sb.append('0');
        }
        return sb.append(f).toString();
    }
}
