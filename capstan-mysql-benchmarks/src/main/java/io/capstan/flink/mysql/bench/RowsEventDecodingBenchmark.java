package io.capstan.flink.mysql.bench;

import io.capstan.flink.mysql.convert.BinlogEventDeserializers;
import io.capstan.flink.mysql.convert.ByteArraySource;
import io.capstan.flink.mysql.convert.RowConverter;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The binlog reader's per-row work for {@link RowDecodingBenchmark}'s decimals family
 * (DECIMAL(12,2), DECIMAL(18,4), DECIMAL(38,10), DOUBLE) from the bytes on: one write-rows event of
 * {@link #ROWS} rows decoded by the event deserializer ({@code decode}), and then each row image
 * converted by {@link RowConverter#fromBinlog} ({@code decodeAndConvert}). {@code decoder}: {@code
 * capstan}, the deserializer the source installs ({@link BinlogEventDeserializers#create()});
 * {@code library}, the binlog library's plain one (every DECIMAL through its {@code BigDecimal}
 * decoding). Figures are per row. The setup checks that both decode the rows to the values written.
 *
 * <p>Run: see docs/performance.md, "Microbenchmarks (JMH)".
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RowsEventDecodingBenchmark {

    static final int ROWS = 100;
    private static final long TABLE_ID = 77;
    private static final int TABLE_MAP = 19;
    private static final int EXT_WRITE_ROWS = 30;
    private static final int NEWDECIMAL = 246;
    private static final int DOUBLE = 5;
    private static final int[][] DECIMALS = {{12, 2}, {18, 4}, {38, 10}};
    private static final int[] DIGITS_TO_BYTES = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};

    @Param({"capstan", "library"})
    public String decoder;

    private EventDeserializer deserializer;
    private RowConverter converter;
    private byte[] writeRows;

    @Setup
    public void setUp() throws IOException {
        deserializer =
                decoder.equals("capstan") ? BinlogEventDeserializers.create() : libraryDecoder();
        List<ColumnSchema> columns = new ArrayList<>();
        for (int c = 0; c < DECIMALS.length; c++) {
            columns.add(
                    ColumnSchema.builder("c" + c, MySqlType.DECIMAL)
                            .precision(DECIMALS[c][0])
                            .scale(DECIMALS[c][1])
                            .build(RowDecodingBenchmark.T));
        }
        columns.add(ColumnSchema.builder("d", MySqlType.DOUBLE).build(RowDecodingBenchmark.T));
        converter = RowConverter.of(new TableSchema(RowDecodingBenchmark.T, columns, new int[0]));

        BigDecimal[][] values = new BigDecimal[ROWS][];
        ByteArrayOutputStream rows = new ByteArrayOutputStream();
        for (int i = 0; i < ROWS; i++) {
            String sign = i % 3 == 0 ? "-" : "";
            values[i] =
                    new BigDecimal[] {
                        new BigDecimal(sign + i * 1234L + ".56"),
                        new BigDecimal(sign + "98765432" + i + ".1234"),
                        new BigDecimal(sign + "1234567890123" + i + ".0123456789"),
                    };
            rows.write(0); // null bitmap: no NULLs
            for (int c = 0; c < DECIMALS.length; c++) {
                rows.writeBytes(decimal(values[i][c], DECIMALS[c][0], DECIMALS[c][1]));
            }
            le(rows, Double.doubleToLongBits(i * 1.5), 8);
        }
        deserializer.nextEvent(new ByteArrayInputStream(tableMapEvent()));
        writeRows = event(EXT_WRITE_ROWS, writeRowsBody(rows.toByteArray()));
        checkDecodes(values);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public Event decode() throws IOException {
        return deserializer.nextEvent(new ByteArrayInputStream(new ByteArraySource(writeRows)));
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void decodeAndConvert(Blackhole bh) throws IOException {
        WriteRowsEventData data =
                deserializer
                        .nextEvent(new ByteArrayInputStream(new ByteArraySource(writeRows)))
                        .getData();
        for (Serializable[] row : data.getRows()) {
            bh.consume(converter.fromBinlog(row));
        }
    }

    private static EventDeserializer libraryDecoder() {
        EventDeserializer d = new EventDeserializer();
        d.setCompatibilityMode(EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        return d;
    }

    private void checkDecodes(BigDecimal[][] values) throws IOException {
        WriteRowsEventData data =
                deserializer
                        .nextEvent(new ByteArrayInputStream(new ByteArraySource(writeRows)))
                        .getData();
        for (int i = 0; i < ROWS; i++) {
            GenericRowData row = converter.fromBinlog(data.getRows().get(i));
            for (int c = 0; c < DECIMALS.length; c++) {
                DecimalData expected =
                        DecimalData.fromBigDecimal(values[i][c], DECIMALS[c][0], DECIMALS[c][1]);
                if (!expected.equals(row.getField(c))) {
                    throw new IllegalStateException("the rows event does not decode as written");
                }
            }
            if (row.getDouble(3) != i * 1.5) {
                throw new IllegalStateException("the rows event does not decode as written");
            }
        }
    }

    /** The table map: three DECIMALs and a DOUBLE, none nullable, no optional metadata. */
    private static byte[] tableMapEvent() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        le(b, TABLE_ID, 6);
        le(b, 0, 2);
        for (String name : new String[] {"bench", "t"}) {
            b.write(name.length());
            b.writeBytes(name.getBytes(StandardCharsets.UTF_8));
            b.write(0);
        }
        b.write(DECIMALS.length + 1);
        for (int c = 0; c < DECIMALS.length; c++) {
            b.write(NEWDECIMAL);
        }
        b.write(DOUBLE);
        b.write(DECIMALS.length * 2 + 1); // metadata length
        for (int[] ps : DECIMALS) {
            b.write(ps[0]); // precision
            b.write(ps[1]); // scale
        }
        b.write(8); // DOUBLE: its size
        b.write(0); // nullability bitmap
        return event(TABLE_MAP, b.toByteArray());
    }

    /** A v2 write-rows body: table id, flags, no extra info, every column included. */
    private static byte[] writeRowsBody(byte[] rows) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        le(b, TABLE_ID, 6);
        le(b, 0, 2);
        le(b, 2, 2); // extra info length (itself only)
        b.write(DECIMALS.length + 1);
        b.write((1 << (DECIMALS.length + 1)) - 1);
        b.writeBytes(rows);
        return b.toByteArray();
    }

    /** A v4 event header (no checksum) and the body. */
    private static byte[] event(int type, byte[] body) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        le(b, 1_700_000_000L, 4);
        b.write(type);
        le(b, 1, 4); // server id
        le(b, 19 + body.length, 4);
        le(b, 0, 4); // next position
        le(b, 0, 2); // flags
        b.writeBytes(body);
        return b.toByteArray();
    }

    /**
     * MySQL's binary DECIMAL (strings/decimal.cc decimal2bin): groups of 9 digits in 4 bytes, the
     * partial ones in fewer, top bit flipped, all bits inverted when negative.
     */
    static byte[] decimal(BigDecimal v, int precision, int scale) {
        String digits = v.setScale(scale).unscaledValue().abs().toString();
        digits = "0".repeat(precision - digits.length()) + digits;
        int intDigits = precision - scale;
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int start = 0;
        for (int len : groupLengths(intDigits, true)) {
            group(b, digits.substring(start, start + len));
            start += len;
        }
        for (int len : groupLengths(scale, false)) {
            group(b, digits.substring(start, start + len));
            start += len;
        }
        byte[] out = b.toByteArray();
        if (v.signum() < 0) {
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) ~out[i];
            }
        }
        out[0] ^= (byte) 0x80;
        return out;
    }

    /** Digit counts of the groups of a part: the partial group leads the integer part. */
    private static List<Integer> groupLengths(int digits, boolean partialFirst) {
        List<Integer> lengths = new ArrayList<>();
        for (int i = 0; i < digits / 9; i++) {
            lengths.add(9);
        }
        if (digits % 9 > 0) {
            lengths.add(partialFirst ? 0 : lengths.size(), digits % 9);
        }
        return lengths;
    }

    private static void group(ByteArrayOutputStream b, String digits) {
        long v = Long.parseLong(digits);
        for (int k = DIGITS_TO_BYTES[digits.length()] - 1; k >= 0; k--) {
            b.write((int) (v >>> (8 * k)) & 0xFF);
        }
    }

    private static void le(ByteArrayOutputStream b, long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            b.write((int) (v >>> (8 * i)) & 0xFF);
        }
    }
}
