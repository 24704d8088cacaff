package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.bench.coldrun.ColdRunLine;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ColdStartReportTest {

    private static final long MAIN = 1_000_000_000L;

    /**
     * A run: submitted at 10 ms, accepted at {@code accepted} ms, first record at {@code first} ms,
     * last at {@code last} ms, CPU 1 s at the first record and {@code cpuMillis} more at the last.
     */
    private static ColdRunLine line(
            int run, long records, long accepted, long first, long last, long cpuMillis) {
        return new ColdRunLine(
                run,
                MAIN,
                10_000,
                accepted * 1000,
                first * 1000,
                last * 1000,
                records,
                500_000,
                1_000_000,
                1_000_000 + cpuMillis * 1000,
                64L << 20);
    }

    @Test
    void ratiosAndStartUpAboveTheFloorAreTakenWithinTheRound() {
        ColdStartOptions o =
                ColdStartOptions.parse(
                        new String[] {
                            "--rounds",
                            "1",
                            "--runs-per-jvm",
                            "1",
                            "--ssl-modes",
                            "DISABLED",
                            "--programs",
                            "floor,scan,snapshot"
                        });
        ColdStartReport report = new ColdStartReport(o, 1001, 100, 140);
        long launch = MAIN - 200_000; // the JVM booted in 200 ms
        // the floor: its MiniCluster started 200 ms sooner; its job's own start took 700 ms
        report.add("floor", "DISABLED", 1, launch, List.of(line(1, 1001, 2800, 3500, 3600, 10)));
        // the scan: 1,000 rows/s after its first record, 5 µs of CPU a row
        report.add("scan", "DISABLED", 1, launch, List.of(line(1, 1001, 0, 400, 1400, 5)));
        // the snapshot: half the scan's rate, twice its CPU, its job's start 100 ms above the
        // floor's
        report.add("snapshot", "DISABLED", 1, launch, List.of(line(1, 1001, 3000, 3800, 5800, 10)));

        String md = report.markdown("server", "machine");

        assertTrue(md.contains("| scan | 200 | 390 | — | — | 1,000 | 1.00 |"), md);
        assertTrue(md.contains("| snapshot | 200 | 3,790 | 800 | 100 | 500 | 0.50 |"), md);
        assertTrue(md.contains("| 10.0 | 2.00 |"), md); // the snapshot's CPU per row and ratio
    }

    @Test
    void streamsAreCountedInRowChangesAndTheClientCountsThemItself() {
        ColdStartOptions o =
                ColdStartOptions.parse(new String[] {"--programs", "binlog-client,binlog"});
        ColdStartReport report = new ColdStartReport(o, 1000, 100, 140);

        assertEquals(100, report.expectedRecords("binlog-client"));
        assertEquals(140, report.expectedRecords("binlog"));
        assertEquals(1000, report.expectedRecords("snapshot"));
    }

    @Test
    void withoutGtidsIsAFlagWithoutValue() {
        assertTrue(
                ColdStartOptions.parse(new String[] {"--without-gtids", "--rounds", "1"})
                        .withoutGtids());
        assertEquals(
                1,
                ColdStartOptions.parse(new String[] {"--without-gtids", "--rounds", "1"}).rounds());
        assertTrue(!ColdStartOptions.parse(new String[] {}).withoutGtids());
    }

    @Test
    void aMedianOfAnEvenCountIsTheMeanOfTheMiddleTwoAndTheSpreadIsShown() {
        assertEquals(
                "2.5 (1.0–4.0)", ColdStartReport.stat(List.of(4.0, 1.0, 3.0, 2.0), d -> d, "%.1f"));
        assertEquals("—", ColdStartReport.stat(List.of(Double.NaN), d -> d, "%.1f"));
    }

    @Test
    void aLineReadsBackAsPrinted() {
        ColdRunLine l = line(2, 7, 3, 4, 5, 6);
        assertEquals(l, ColdRunLine.parse(l.format()));
        assertThrows(IllegalArgumentException.class, () -> ColdRunLine.parse("other output"));
    }

    @Test
    void theFlink120ProgramsNeedTheirClasspath() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> ColdStartOptions.parse(new String[] {"--programs", "cdc-snapshot"}));
        assertTrue(e.getMessage().contains("--flink-1.20-classpath"), e.getMessage());
    }
}
