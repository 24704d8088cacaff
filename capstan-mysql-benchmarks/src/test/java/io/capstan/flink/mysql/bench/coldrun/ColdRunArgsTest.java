package io.capstan.flink.mysql.bench.coldrun;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ColdRunArgsTest {

    private static final String GTID = "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-23";
    private static final List<String> VARIANTS = List.of("snapshot", "binlog", "floor");

    private static List<String> args(String variant) {
        return new ArrayList<>(
                Arrays.asList(
                        "--variant", variant,
                        "--host", "127.0.0.1",
                        "--port", "3307",
                        "--user", "bench",
                        "--ssl-mode", "REQUIRED",
                        "--database", "bench",
                        "--table", "orders",
                        "--expect", "1500000",
                        "--gtid-before", GTID,
                        "--runs", "3",
                        "--parallelism", "1"));
    }

    private static ColdRunArgs<String> parse(List<String> args) {
        return ColdRunArgs.parse(
                args.toArray(new String[0]),
                id -> {
                    if (!VARIANTS.contains(id)) {
                        throw new IllegalArgumentException("unknown variant");
                    }
                    return id;
                },
                v -> v.equals("binlog"));
    }

    @Test
    void readsTheBenchmarksArguments() {
        ColdRunArgs<String> a = parse(args("binlog"));
        assertEquals("binlog", a.variant());
        assertEquals("127.0.0.1", a.host());
        assertEquals(3307, a.port());
        assertEquals("bench", a.user());
        assertEquals(ColdRunArgs.SslMode.REQUIRED, a.sslMode());
        assertEquals("bench", a.database());
        assertEquals("orders", a.table());
        assertEquals(1_500_000L, a.expect());
        assertEquals(GTID, a.gtidBefore());
        assertEquals(3, a.runs());
        assertEquals(1, a.parallelism());
        assertEquals(7300, a.serverId());
        assertEquals(Duration.ofSeconds(600), a.timeout());
        assertThrows(IllegalArgumentException.class, () -> parse(args("initial")));
    }

    @Test
    void theOptionalOnesMayBeGiven() {
        List<String> a = args("floor");
        a.addAll(List.of("--timeout-seconds", "30", "--server-id", "7400"));
        assertEquals(Duration.ofSeconds(30), parse(a).timeout());
        assertEquals(7400, parse(a).serverId());
    }

    @Test
    void snapshotVariantsNeedNoGtidSetAndBinlogVariantsDo() {
        List<String> snapshot = args("snapshot");
        int at = snapshot.indexOf("--gtid-before");
        snapshot.subList(at, at + 2).clear();
        assertNull(parse(snapshot).gtidBefore());

        List<String> binlog = args("binlog");
        binlog.subList(at, at + 2).clear();
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> parse(binlog));
        assertTrue(e.getMessage().contains("--gtid-before"), e.getMessage());

        // a server without GTIDs: the binlog variants start at a file and position
        binlog.addAll(List.of("--binlog-file", "binlog.000042", "--binlog-pos", "4711"));
        ColdRunArgs<String> positions = parse(binlog);
        assertNull(positions.gtidBefore());
        assertEquals("binlog.000042", positions.binlogFile());
        assertEquals(4711, positions.binlogPos());
        List<String> fileOnly = args("binlog");
        fileOnly.addAll(List.of("--binlog-file", "binlog.000042"));
        assertThrows(IllegalArgumentException.class, () -> parse(fileOnly));
    }

    @Test
    void refusesAMissingUnknownRepeatedOrMalformedOption() {
        List<String> missing = args("snapshot");
        int at = missing.indexOf("--expect");
        missing.subList(at, at + 2).clear();
        assertThrows(IllegalArgumentException.class, () -> parse(missing));

        List<String> unknown = args("snapshot");
        unknown.addAll(List.of("--password", "secret"));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> parse(unknown));
        assertTrue(!e.getMessage().contains("secret"), "an option's value is never echoed");

        List<String> repeated = args("snapshot");
        repeated.addAll(List.of("--runs", "2"));
        assertThrows(IllegalArgumentException.class, () -> parse(repeated));

        List<String> noValue = args("snapshot");
        noValue.add("--timeout-seconds");
        assertThrows(IllegalArgumentException.class, () -> parse(noValue));

        List<String> badSsl = args("snapshot");
        badSsl.set(badSsl.indexOf("REQUIRED"), "PREFERRED");
        assertThrows(IllegalArgumentException.class, () -> parse(badSsl));

        List<String> badNumber = args("snapshot");
        badNumber.set(badNumber.indexOf("1500000"), "1.5e6");
        IllegalArgumentException n =
                assertThrows(IllegalArgumentException.class, () -> parse(badNumber));
        assertTrue(!n.getMessage().contains("1.5e6"), "an option's value is never echoed");

        List<String> noRuns = args("snapshot");
        noRuns.set(noRuns.indexOf("3"), "0");
        assertThrows(IllegalArgumentException.class, () -> parse(noRuns));
    }
}
