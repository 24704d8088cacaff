package io.capstan.flink.mysql.perf;

import io.capstan.flink.mysql.bench.endtoend.BenchServer;
import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.SslMode;
import io.capstan.flink.mysql.convert.RowConverter;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcBoundaryQueries;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcTableKeyMetadataReader;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.ChunkKeyResolver;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.snapshot.plan.TableChunkPlanner;
import io.capstan.flink.mysql.snapshot.read.ChunkReader;
import io.capstan.flink.mysql.snapshot.read.ChunkResult;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;
import io.capstan.flink.mysql.snapshot.read.TableReadSpec;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ServerOptions;

import org.apache.flink.table.data.RowData;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the snapshot's read time goes, against the plain JDBC streaming scan (the goal's measure),
 * on one embedded server and in one JVM, variants alternating within each round:
 *
 * <ul>
 *   <li>{@code plain}: {@code SELECT *} streamed ({@code fetchSize=Integer.MIN_VALUE}) with the
 *       typed getter of every column (DATETIME/TIMESTAMP through {@code getObject(i,
 *       LocalDateTime.class)}, the cheapest; {@code getTimestamp} is much slower);
 *   <li>{@code chunks}: {@link ChunkReader} over every chunk (default chunk size 8096, default
 *       options), planned lazily as the source does;
 *   <li>{@code plain+convert}: the plain scan with {@link RowConverter#fromJdbc} per row instead of
 *       the getters: the converter's cost without chunking and locking.
 * </ul>
 *
 * Run (prints medians and ratios):
 *
 * <pre>
 * mvn -B -o -pl capstan-mysql-benchmarks -am test -Dtest=SnapshotReadProbe -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dperf.rows=300000 -Dperf.rounds=5
 * </pre>
 *
 * or directly with java (for JFR) on the test classpath: main class {@code
 * io.capstan.flink.mysql.perf.SnapshotReadProbe}; {@code -Dperf.only=chunks} repeats one variant.
 */
public class SnapshotReadProbe {

    private static final String DB = "perf_snapshot";
    private static final String TABLE = "t";
    private static final int CHUNK_SIZE = 8096; // scan.incremental.snapshot.chunk.size default

    private static volatile long sink;

    @Test
    void probe() throws Exception {
        main(new String[0]);
    }

    public static void main(String[] args) throws Exception {
        int rows = PerfData.intProperty("perf.rows", 300_000);
        try (MySqlServer server = MySqlServer.startEmbedded(ServerOptions.defaults())) {
            PerfData.createTable(server, DB, TABLE);
            long t0 = System.nanoTime();
            PerfData.insertRows(server, DB, TABLE, 1, rows + 1, 1000);
            System.out.printf(
                    "generated %d rows in %.1f s%n", rows, (System.nanoTime() - t0) / 1e9);
            server.executeAsRoot("ANALYZE TABLE " + DB + "." + TABLE);
            // -Dperf.ssl=DISABLED measures without TLS (default: the connector's default,
            // PREFERRED)
            MySqlConnectionConfig config =
                    BenchServer.connectorConfig(
                            server, SslMode.valueOf(System.getProperty("perf.ssl", "PREFERRED")));
            TableId table = TableId.of(DB, TABLE);

            if (!Boolean.getBoolean("perf.skipCheck")) {
                crossCheck(config, table, rows);
            }
            Map<String, PerfData.Variant> variants = new LinkedHashMap<>();
            variants.put("plain", () -> plainScan(config, table, null));
            variants.put("chunks", () -> chunks(config, table));
            variants.put("plain+convert", () -> plainScan(config, table, converter(config, table)));
            PerfData.measure(variants, rows, "rows");
        }
    }

    private static RowConverter converter(MySqlConnectionConfig config, TableId table)
            throws Exception {
        try (Connection c = JdbcConnections.open(config)) {
            TableSchema schema = JdbcSchemaReader.read(c, table);
            return RowConverter.of(schema);
        }
    }

    /** The limit: one streamed SELECT; with a converter, each row goes through it instead. */
    private static long plainScan(
            MySqlConnectionConfig config, TableId table, RowConverter converter) throws Exception {
        long n = 0;
        long h = 0;
        try (Connection c = JdbcConnections.open(config);
                Statement st =
                        c.createStatement(
                                ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            st.setFetchSize(Integer.MIN_VALUE);
            try (ResultSet rs =
                    st.executeQuery(
                            "SELECT id, i, s64, amount, dt, ts, flag, d, s255, doc FROM "
                                    + table.quoted())) {
                while (rs.next()) {
                    if (converter != null) {
                        RowData row = converter.fromJdbc(rs);
                        h += row.getLong(0);
                    } else {
                        h += rs.getLong(1);
                        h += rs.getInt(2);
                        h += len(rs.getString(3));
                        BigDecimal amount = rs.getBigDecimal(4);
                        h += amount == null ? 0 : amount.scale();
                        LocalDateTime dt = rs.getObject(5, LocalDateTime.class);
                        h += dt == null ? 0 : dt.getNano();
                        LocalDateTime ts = rs.getObject(6, LocalDateTime.class);
                        h += ts == null ? 0 : ts.getNano();
                        h += rs.getByte(7);
                        h += (long) rs.getDouble(8);
                        h += len(rs.getString(9));
                        h += len(rs.getString(10));
                    }
                    n++;
                }
            }
        }
        sink += h;
        return n;
    }

    private static int len(String s) {
        return s == null ? 0 : s.length();
    }

    /**
     * Before timing anything: every chunk read by streaming equals the same chunk read through a
     * server cursor (binary protocol) and the same rows of one plain scan through the converter.
     */
    private static void crossCheck(MySqlConnectionConfig config, TableId table, int rows)
            throws Exception {
        RowConverter converter = converter(config, table);
        long n = 0;
        try (Connection c = JdbcConnections.open(config);
                Connection scan = JdbcConnections.open(config);
                Statement st =
                        scan.createStatement(
                                ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
                ChunkReader streaming = new ChunkReader(config, SnapshotReadOptions.defaults());
                ChunkReader cursor =
                        new ChunkReader(
                                config,
                                new SnapshotReadOptions(
                                        1000,
                                        SnapshotReadOptions.DEFAULT_LOCK_WAIT_TIMEOUT,
                                        SnapshotReadOptions.DEFAULT_LOCK_WAIT_BUDGET))) {
            st.setFetchSize(Integer.MIN_VALUE);
            ChunkKey key =
                    ChunkKeyResolver.resolve(
                            JdbcTableKeyMetadataReader.read(c, table), Optional.empty());
            TableReadSpec spec = TableReadSpec.forSchema(key, JdbcSchemaReader.read(c, table));
            TableChunkPlanner planner =
                    new TableChunkPlanner(key, CHUNK_SIZE, new JdbcBoundaryQueries(c));
            try (ResultSet rs =
                    st.executeQuery(
                            "SELECT id, i, s64, amount, dt, ts, flag, d, s255, doc FROM "
                                    + table.quoted()
                                    + " ORDER BY id")) {
                for (Optional<SnapshotChunk> chunk = planner.next();
                        chunk.isPresent();
                        chunk = planner.next()) {
                    List<RowData> a = streaming.read(chunk.get(), spec).rows();
                    List<RowData> b = cursor.read(chunk.get(), spec).rows();
                    if (!a.equals(b)) {
                        throw new IllegalStateException(
                                "chunk "
                                        + chunk.get().id()
                                        + ": streaming and cursor reads differ");
                    }
                    for (RowData row : a) {
                        if (!rs.next() || !converter.fromJdbc(rs).equals(row)) {
                            throw new IllegalStateException(
                                    "chunk " + chunk.get().id() + " differs from the plain scan");
                        }
                        n++;
                    }
                }
            }
        }
        if (n != rows) {
            throw new IllegalStateException("cross-check saw " + n + " rows");
        }
        System.out.println(
                "cross-check: chunks (streaming) = chunks (server cursor) = plain scan + converter");
    }

    /** Plans lazily and reads each chunk as it is planned, as the source's reader does. */
    private static long chunks(MySqlConnectionConfig config, TableId table) throws Exception {
        long n = 0;
        try (Connection c = JdbcConnections.open(config);
                ChunkReader reader = new ChunkReader(config, SnapshotReadOptions.defaults())) {
            ChunkKey key =
                    ChunkKeyResolver.resolve(
                            JdbcTableKeyMetadataReader.read(c, table), Optional.empty());
            TableReadSpec spec = TableReadSpec.forSchema(key, JdbcSchemaReader.read(c, table));
            TableChunkPlanner planner =
                    new TableChunkPlanner(key, CHUNK_SIZE, new JdbcBoundaryQueries(c));
            for (Optional<SnapshotChunk> chunk = planner.next();
                    chunk.isPresent();
                    chunk = planner.next()) {
                ChunkResult result = reader.read(chunk.get(), spec);
                n += result.rowCount();
                sink += result.rows().isEmpty() ? 0 : result.rows().get(0).getArity();
            }
        }
        return n;
    }
}
