package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.schema.TableSchema;

import java.util.Locale;

import static io.capstan.flink.mysql.bench.endtoend.EndToEndBenchmark.record;

/**
 * The throttled snapshot of one round: the Flink source's snapshot at parallelism 2 exactly as
 * {@link SnapshotStallPhase} runs it, but with {@code scan.snapshot.max-rows-per-second} set to
 * {@code --snapshot-max-rows-per-second} (the whole job's limit, an equal share per reader). Beside
 * its rate, the round's two ratios to that limit: the throttled snapshot's and the unthrottled
 * snapshot's at parallelism 2 (measured just before in the same round, on the same data). No steady
 * writer runs during it.
 */
final class ThrottledSnapshotPhase {

    private static final int PARALLELISM = 2;

    private ThrottledSnapshotPhase() {}

    static void run(
            BenchOptions o,
            BenchServer server,
            BenchTable table,
            TableSchema schema,
            long tableRows,
            ResultTable results,
            FlinkJobs jobs,
            int round)
            throws Exception {
        long limit = o.snapshotMaxRowsPerSecond;
        PhaseResult throttled =
                FlinkSnapshotPhase.run(jobs, server, table, schema, tableRows, PARALLELISM, limit);
        record(results, "source-snapshot-p2-throttled", throttled, "rows/s");
        results.add("throttled-vs-limit", throttled.perSecond() / limit, 0, 0);
        if (o.runs("snapshot")) {
            double unthrottled = results.last("source-snapshot-p2");
            results.add("unthrottled-vs-limit", unthrottled / limit, 0, 0);
            if (unthrottled < 1.5 * limit) {
                results.footnote(
                        String.format(
                                Locale.ROOT,
                                "Throttle round %d: the snapshot at parallelism 2 ran at %,.0f"
                                        + " rows/s without the limit, not well above the limit of"
                                        + " %,d rows/s; lower --snapshot-max-rows-per-second to"
                                        + " see the throttle.",
                                round,
                                unthrottled,
                                limit));
            }
        }
    }
}
