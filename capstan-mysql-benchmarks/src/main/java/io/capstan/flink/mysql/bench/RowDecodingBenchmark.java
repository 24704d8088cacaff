package io.capstan.flink.mysql.bench;

import io.capstan.flink.mysql.convert.RowConverter;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.table.data.GenericRowData;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@link RowConverter#fromBinlog} (called once per row image by the binlog reader) on raw rows as
 * the binlog library and our cell decoders hand them over, one table per type family, each with
 * four columns of that family; and the end-to-end benchmark's 10-column table ({@code benchTable}).
 * Rows cycle through {@link #ROWS} pre-built images so values differ.
 *
 * <p>Run: see docs/performance.md, "Microbenchmarks (JMH)".
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RowDecodingBenchmark {

    static final TableId T = TableId.of("bench", "t");
    private static final int ROWS = 256; // power of two, cycled through

    @Param({"ints", "decimals", "strings", "temporals", "json", "benchTable"})
    public String family;

    private RowConverter converter;
    private Serializable[][] rows;
    private int next;

    @Setup
    public void setUp() {
        List<ColumnSchema> columns = new ArrayList<>();
        rows = new Serializable[ROWS][];
        switch (family) {
            case "ints":
                columns.add(col("a", MySqlType.BIGINT).build(T));
                columns.add(col("b", MySqlType.INT).build(T));
                columns.add(col("c", MySqlType.INT).unsigned(true).build(T));
                columns.add(col("d", MySqlType.TINYINT).build(T));
                for (int i = 0; i < ROWS; i++) {
                    rows[i] = new Serializable[] {1_000_000L + i, i * 7, -i, (i % 256) - 128};
                }
                break;
            case "decimals":
                columns.add(col("a", MySqlType.DECIMAL).precision(12).scale(2).build(T));
                columns.add(col("b", MySqlType.DECIMAL).precision(18).scale(4).build(T));
                columns.add(col("c", MySqlType.DECIMAL).precision(38).scale(10).build(T));
                columns.add(col("d", MySqlType.DOUBLE).build(T));
                for (int i = 0; i < ROWS; i++) {
                    rows[i] =
                            new Serializable[] {
                                new BigDecimal(i * 1234L + ".56"),
                                new BigDecimal("98765432" + i + ".1234"),
                                new BigDecimal("1234567890123" + i + ".0123456789"),
                                i * 1.5,
                            };
                }
                break;
            case "strings":
                columns.add(col("a", MySqlType.VARCHAR).charset("utf8mb4").length(64).build(T));
                columns.add(col("b", MySqlType.VARCHAR).charset("utf8mb4").length(255).build(T));
                columns.add(col("c", MySqlType.CHAR).charset("latin1").length(16).build(T));
                columns.add(col("d", MySqlType.TEXT).charset("utf8mb4").build(T));
                for (int i = 0; i < ROWS; i++) {
                    rows[i] =
                            new Serializable[] {
                                utf8("customer-" + Integer.toHexString(i * 31337)),
                                utf8(
                                        "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo "
                                                + i),
                                ("code-" + i).getBytes(StandardCharsets.ISO_8859_1),
                                utf8(
                                        "Grüße aus Köln, "
                                                + i
                                                + " — a longer text with non-ASCII characters ünd so weiter"),
                            };
                }
                break;
            case "temporals":
                columns.add(col("a", MySqlType.DATETIME).precision(3).build(T));
                columns.add(col("b", MySqlType.TIMESTAMP).precision(3).build(T));
                columns.add(col("c", MySqlType.DATE).build(T));
                columns.add(col("d", MySqlType.TIME).precision(6).build(T));
                for (int i = 0; i < ROWS; i++) {
                    long micros = 1_700_000_000_000_000L + i * 1_234_567_000L;
                    rows[i] =
                            new Serializable[] {
                                micros, micros + 86_400_000_000L, 19_000 + i, i * 1_000_001L
                            };
                }
                break;
            case "json":
                for (String name : new String[] {"a", "b", "c", "d"}) {
                    columns.add(col(name, MySqlType.JSON).build(T));
                }
                for (int i = 0; i < ROWS; i++) {
                    byte[] doc = jsonDocument(i);
                    rows[i] = new Serializable[] {doc, doc, doc, doc};
                }
                break;
            case "benchTable":
                columns.add(col("id", MySqlType.BIGINT).build(T));
                columns.add(col("qty", MySqlType.INT).build(T));
                columns.add(
                        col("customer", MySqlType.VARCHAR).charset("utf8mb4").length(64).build(T));
                columns.add(col("amount", MySqlType.DECIMAL).precision(12).scale(2).build(T));
                columns.add(col("created_at", MySqlType.DATETIME).precision(3).build(T));
                columns.add(col("updated_at", MySqlType.TIMESTAMP).precision(3).build(T));
                columns.add(col("status", MySqlType.TINYINT).build(T));
                columns.add(col("score", MySqlType.DOUBLE).build(T));
                columns.add(col("note", MySqlType.VARCHAR).charset("utf8mb4").length(255).build(T));
                columns.add(col("attrs", MySqlType.JSON).build(T));
                for (int i = 0; i < ROWS; i++) {
                    long micros = 1_700_000_000_000_000L + i * 1_234_567_000L;
                    rows[i] =
                            new Serializable[] {
                                1_000_000L + i,
                                i * 7,
                                utf8("customer-" + Integer.toHexString(i * 31337)),
                                new BigDecimal(i * 1234L + ".56"),
                                micros,
                                micros + 86_400_000_000L,
                                (i % 256) - 128,
                                i * 1.5,
                                utf8(
                                        "alpha bravo charlie delta echo foxtrot golf hotel india juliet "
                                                + i),
                                jsonDocument(i),
                            };
                }
                break;
            default:
                throw new IllegalArgumentException("unknown family " + family);
        }
        converter = RowConverter.of(new TableSchema(T, columns, new int[0]));
        if (family.equals("json")) {
            String text = converter.fromBinlog(rows[0]).getString(0).toString();
            String expected =
                    "{\"sku\": \"S-0\", \"gift\": true, \"tags\": [\"alpha\", \"bravo\"], \"weight\": 12.5}";
            if (!text.equals(expected)) {
                throw new IllegalStateException(
                        "the binary JSON fixture does not decode as MySQL prints it");
            }
        }
    }

    RowConverter converter() {
        return converter;
    }

    Serializable[] row(int i) {
        return rows[i & (ROWS - 1)];
    }

    @Benchmark
    public GenericRowData fromBinlog() {
        return converter.fromBinlog(rows[next++ & (ROWS - 1)]);
    }

    static ColumnSchema.Builder col(String name, MySqlType type) {
        return ColumnSchema.builder(name, type);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * {"sku": "S-i", "gift": true, "tags": ["alpha", "bravo"], "weight": 12.5}, keys in MySQL's
     * order.
     */
    static byte[] jsonDocument(int i) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sku", "S-" + i);
        m.put("gift", i % 2 == 0);
        m.put("tags", List.of("alpha", "bravo"));
        // like the end-to-end table's weights: two decimals, mostly not exactly representable
        m.put("weight", i == 0 ? 12.5 : (i * 3_7919 % 50_000) / 100.0);
        return MySqlBinaryJson.object(m);
    }
}
