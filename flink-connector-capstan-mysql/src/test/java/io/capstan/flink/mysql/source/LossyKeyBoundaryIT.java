package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.deserializer.JsonDebeziumDeserializer;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.source.it.SourceJobs;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A latin1 chunk key whose boundary holds a byte latin1 leaves unassigned (0x81, which Java and
 * Connector/J decode as U+FFFD and which would be bound back as {@code ?}) halts by name instead of
 * reading chunks whose ranges disagree with the stored keys.
 */
class LossyKeyBoundaryIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @RegisterExtension static final MiniClusterExtension FLINK = SourceJobs.miniCluster(1);

    @Test
    void aLatin1BoundaryWithAnUnassignedByteHaltsByName() throws Exception {
        DB.execute(
                "CREATE TABLE lk (k VARCHAR(10) CHARACTER SET latin1 COLLATE latin1_swedish_ci"
                        + " NOT NULL PRIMARY KEY, v INT)");
        for (int i = 0; i < 12; i++) {
            // 'A'..'L' then 0x81, then a digit: every boundary holds the unassigned byte
            DB.execute(
                    String.format(
                            "INSERT INTO lk VALUES (X'%02X8130', %d), (X'%02X8131', %d)",
                            0x41 + i, 2 * i, 0x41 + i, 2 * i + 1));
        }
        CapstanMySqlSource<String> source =
                CapstanMySqlSource.<String>builder()
                        .hostname(DB.server().host())
                        .port(DB.server().port())
                        .username(DB.server().connectorAccount().username())
                        .password(DB.server().connectorAccount().password())
                        .tableList(DB.name() + "\\.lk")
                        .serverId(ThreadLocalRandom.current().nextLong(100_000, 200_000))
                        .startupOptions(StartupOptions.snapshot())
                        .chunkSize(3)
                        .deserializer(new JsonDebeziumDeserializer())
                        .build();
        List<String> rows = new ArrayList<>();
        Throwable failure =
                catchThrowable(
                        () -> {
                            try (CloseableIterator<String> it =
                                    SourceJobs.env(200, null)
                                            .fromSource(
                                                    source,
                                                    WatermarkStrategy.noWatermarks(),
                                                    "lossy-key")
                                            .executeAndCollect()) {
                                it.forEachRemaining(rows::add);
                            }
                        });
        Optional<CapstanHaltException> halt =
                ExceptionUtils.findThrowable(failure, CapstanHaltException.class);
        assertThat(halt).as("rows read: " + rows.size() + ", failure: " + failure).isPresent();
        assertThat(halt.get().reason()).isEqualTo(HaltReason.UNSUPPORTED_CHUNK_KEY);
        assertThat(halt.get().getMessage()).contains(DB.name() + ".lk").contains("column k");
    }
}
