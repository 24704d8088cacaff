package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcBoundaryQueries;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcTableKeyMetadataReader;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.ChunkKeyResolver;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.snapshot.plan.SnapshotPlanner;
import io.capstan.flink.mysql.snapshot.read.ChunkReader;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;
import io.capstan.flink.mysql.snapshot.read.TableReadSpec;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the UUID-keyed table's snapshot chunk path spends its time beside the integer-keyed
 * table's: the same rows under both keys, and per table the text and binary scans, the chunk
 * planning alone (every boundary query, with its weight for the UUID key) and the chunk reading
 * alone (the planned chunks read by one {@link ChunkReader}). Variants alternate within each round
 * and the minimum and median over the rounds are printed, so a loaded machine shows the cost rather
 * than its noise. Not run by the build: {@code mvn -B -o -pl capstan-mysql-benchmarks -am test
 * -Dtest=ChunkPathProbe -Dsurefire.failIfNoSpecifiedTests=false -Dperf.rows=110000
 * -Dperf.rounds=7}.
 */
public class ChunkPathProbe {

    @Test
    void probe() throws Exception {
        int rows = Integer.getInteger("perf.rows", 110_000);
        int rounds = Integer.getInteger("perf.rounds", 7);
        BenchOptions o =
                BenchOptions.parse(new String[] {"--no-doc", "--rows", Integer.toString(rows)});
        try (BenchServer server = BenchServer.start(o)) {
            BenchTable ints = new BenchTable(o.database, BenchTable.MAIN, false);
            BenchTable uuids = new BenchTable(o.database, BenchTable.UUID_KEYED, false, true);
            server.execute(
                    "DROP DATABASE IF EXISTS `" + o.database + "`",
                    "CREATE DATABASE `" + o.database + "`",
                    ints.ddl(),
                    uuids.ddl());
            DataLoader.load(server, ints, rows, o.writers);
            DataLoader.load(server, uuids, rows, o.writers);
            Map<String, List<Double>> millis = new LinkedHashMap<>();
            for (int round = 0; round <= rounds; round++) { // round 0 warms up, not counted
                for (BenchTable t : List.of(ints, uuids)) {
                    String name = t.uuidKey() ? "uuid " : "int  ";
                    add(millis, round, name + "text scan", JdbcScans.plainScan(server, t, rows));
                    add(
                            millis,
                            round,
                            name + "binary scan",
                            JdbcScans.plainBinaryScan(server, t, rows));
                    chunkPath(server, t, rows, o.chunkSize, millis, round, name);
                }
            }
            System.out.printf(
                    "%-24s %10s %10s  (ms over %,d rows, %d rounds)%n",
                    "variant", "min", "median", rows, rounds);
            for (Map.Entry<String, List<Double>> e : millis.entrySet()) {
                System.out.printf(
                        "%-24s %10.1f %10.1f%n",
                        e.getKey(),
                        e.getValue().stream().mapToDouble(Double::doubleValue).min().orElse(0),
                        ResultTable.median(e.getValue()));
            }
        }
    }

    private static void chunkPath(
            BenchServer server,
            BenchTable table,
            long rows,
            int chunkSize,
            Map<String, List<Double>> millis,
            int round,
            String name)
            throws Exception {
        List<SnapshotChunk> chunks = new ArrayList<>();
        TableReadSpec spec;
        try (Connection planning = JdbcConnections.open(server.reader())) {
            ChunkKey key =
                    ChunkKeyResolver.resolve(
                            JdbcTableKeyMetadataReader.read(planning, table.id()),
                            Optional.empty());
            spec = TableReadSpec.forSchema(key, JdbcSchemaReader.read(planning, table.id()));
            long start = System.nanoTime();
            SnapshotPlanner planner =
                    new SnapshotPlanner(
                            List.of(key), chunkSize, new JdbcBoundaryQueries(planning), Map.of());
            for (Optional<SnapshotChunk> c = planner.next(); c.isPresent(); c = planner.next()) {
                chunks.add(c.get());
            }
            add(millis, round, name + "chunk planning", System.nanoTime() - start);
        }
        try (ChunkReader reader =
                new ChunkReader(server.reader(), SnapshotReadOptions.defaults())) {
            long start = System.nanoTime();
            long read = 0;
            StringBuilder perChunk = new StringBuilder();
            for (SnapshotChunk c : chunks) {
                long t0 = System.nanoTime();
                read += reader.read(c, spec).rowCount();
                perChunk.append(String.format(" %.0f", (System.nanoTime() - t0) / 1e6));
            }
            if (Boolean.getBoolean("perf.perChunk")) {
                System.out.println(name + "round " + round + " ms per chunk:" + perChunk);
            }
            add(millis, round, name + "chunk reading", System.nanoTime() - start);
            if (read != rows) {
                throw new IllegalStateException("read " + read + " rows, expected " + rows);
            }
        }
    }

    private static void add(
            Map<String, List<Double>> millis, int round, String key, PhaseResult r) {
        add(millis, round, key, r.nanos);
    }

    private static void add(Map<String, List<Double>> millis, int round, String key, long nanos) {
        if (round > 0) {
            millis.computeIfAbsent(key, k -> new ArrayList<>()).add(nanos / 1e6);
        }
    }
}
