package io.capstan.flink.mysql.demo;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's timed mode, as CI runs it: embedded MySQL, seed rows, 12 s of load with a settle
 * point, then Flink's GROUP BY over the capstan-mysql changelog must equal MySQL's GROUP BY. A
 * lost, duplicated or misordered row change makes the counts or revenues differ and the demo exit
 * with 1.
 */
class DemoSmokeIT {

    @Test
    void flinkAggregateEqualsMySqlAfterTwelveSecondsOfLoad() {
        Properties p = new Properties();
        // 12 s: one settle point (every 10 s) and the final comparison, as 20 s gave.
        p.setProperty("demo.duration", "12s");
        p.setProperty("demo.rows", "1000");
        p.setProperty("demo.rate", "60");
        p.setProperty("demo.work.dir", "target/demo-it");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        int exit = new ShopDemo(DemoOptions.from(p), out).run();

        String output = bytes.toString(StandardCharsets.UTF_8);
        System.out.println(output);
        assertThat(output).contains("RESULT: MATCH").contains("Stopped.");
        assertThat(output).containsPattern("settle points exact: ([1-9][0-9]*) of \\1 ");
        assertThat(exit).isEqualTo(ShopDemo.EXIT_MATCH);
    }
}
