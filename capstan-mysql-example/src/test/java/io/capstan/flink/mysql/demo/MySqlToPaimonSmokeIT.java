package io.capstan.flink.mysql.demo;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lakehouse example's timed mode, as CI runs it: embedded MySQL, the shop's three tables into
 * Paimon tables on a local directory with the load running; at every settle point and at the end a
 * Flink batch query over Paimon must give MySQL's row count and checksum for every table. A lost,
 * duplicated or wrong row change in any table makes a checksum differ and the example exit with 1.
 */
class MySqlToPaimonSmokeIT {

    @Test
    void paimonTablesEqualMySqlAtEverySettlePoint() {
        Properties p = new Properties();
        // 25 s: one settle point under load (every 20 s) besides the snapshot's and the final one
        p.setProperty("demo.duration", "25s");
        p.setProperty("demo.rows", "1000");
        p.setProperty("demo.rate", "60");
        p.setProperty("demo.work.dir", "target/paimon-it");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        int exit = new MySqlToPaimon(DemoOptions.from(p), out).run();

        String output = bytes.toString(StandardCharsets.UTF_8);
        System.out.println(output);
        assertThat(output).contains("RESULT: MATCH").contains("Stopped.");
        assertThat(output).containsPattern("settle points exact: ([3-9]|[1-9][0-9]+) of \\1\\b");
        assertThat(exit).isEqualTo(ShopDemo.EXIT_MATCH);
    }
}
