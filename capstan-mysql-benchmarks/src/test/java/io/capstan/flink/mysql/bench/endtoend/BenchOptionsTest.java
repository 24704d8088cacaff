package io.capstan.flink.mysql.bench.endtoend;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchOptionsTest {

    @Test
    void throttledSnapshotRunsAtTwentyThousandRowsPerSecondByDefault() {
        BenchOptions o = BenchOptions.parse(new String[] {"--no-doc"});
        assertEquals(20_000, o.snapshotMaxRowsPerSecond);
        assertTrue(o.runs("throttle"));
    }

    @Test
    void throttledSnapshotLimitIsAnOptionAndCanBeSkipped() {
        BenchOptions o =
                BenchOptions.parse(
                        new String[] {
                            "--no-doc",
                            "--snapshot-max-rows-per-second",
                            "5,000",
                            "--skip",
                            "throttle"
                        });
        assertEquals(5_000, o.snapshotMaxRowsPerSecond);
        assertFalse(o.runs("throttle"));
        assertTrue(o.runs("snapshot"));
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        BenchOptions.parse(
                                new String[] {"--no-doc", "--snapshot-max-rows-per-second", "0"}));
    }

    @Test
    void withoutGtidsStartsTheEmbeddedServerInPositionModeOnly() {
        assertFalse(BenchOptions.parse(new String[] {"--no-doc"}).withoutGtids);
        BenchOptions o = BenchOptions.parse(new String[] {"--no-doc", "--without-gtids"});
        assertTrue(o.withoutGtids);
        assertTrue(o.sizeLabel().contains("without GTIDs"));
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                BenchOptions.parse(
                                        new String[] {
                                            "--no-doc",
                                            "--without-gtids",
                                            "--mysql-url",
                                            "mysql://u:secret@db:3306"
                                        }));
        assertFalse(e.getMessage().contains("secret"));
    }
}
