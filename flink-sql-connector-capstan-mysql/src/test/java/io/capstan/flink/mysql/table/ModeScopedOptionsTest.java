package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static io.capstan.flink.mysql.table.TableFixtures.PASSWORD;
import static io.capstan.flink.mysql.table.TableFixtures.allMessages;
import static io.capstan.flink.mysql.table.TableFixtures.create;
import static io.capstan.flink.mysql.table.TableFixtures.validOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * An option the chosen startup mode does not read is accepted, warned about once and has no effect:
 * users switch the mode with a hint on a table whose DDL keeps the other modes' options.
 */
class ModeScopedOptionsTest {

    /** The validated table and the warnings it gave. */
    private record Validated(MySqlTableDefinition table, List<String> warnings) {}

    private static Validated validate(Consumer<Map<String, String>> change) {
        Map<String, String> options = validOptions();
        options.put("server-id", "5401"); // an unset id is drawn at random: fix it to compare
        change.accept(options);
        List<String> warnings = new ArrayList<>();
        MySqlTableDefinition table =
                TableOptionsValidation.validate(
                        Configuration.fromMap(options), options, warnings::add);
        return new Validated(table, warnings);
    }

    @Test
    void theRetentionCheckIntervalIsReadByInitialOnly() {
        Validated initial =
                validate(
                        o -> {
                            o.put("scan.startup.mode", "initial");
                            o.put("scan.snapshot.binlog-retention-check.interval", "1 min");
                        });
        assertThat(initial.warnings()).isEmpty();
        Validated snapshot =
                validate(
                        o -> {
                            o.put("scan.startup.mode", "snapshot");
                            o.put("scan.snapshot.binlog-retention-check.interval", "1 min");
                        });
        assertThat(snapshot.warnings())
                .containsExactly(
                        "Option 'scan.snapshot.binlog-retention-check.interval' is ignored in mode"
                                + " snapshot: it applies only to scan.startup.mode 'initial'.");
    }

    @Test
    void snapshotOptionsInABinlogOnlyModeAreIgnoredWithOneWarningEach() {
        Validated plain = validate(o -> o.put("scan.startup.mode", "latest-offset"));
        Validated withSnapshotOptions =
                validate(
                        o -> {
                            o.put("scan.startup.mode", "latest-offset");
                            o.put("scan.incremental.snapshot.chunk.size", "500");
                            o.put("scan.snapshot.fetch.size", "64");
                            o.put("scan.incremental.snapshot.chunk.key-column", "customer_id");
                            o.put("scan.snapshot.lock-wait.timeout", "3 s");
                            o.put("scan.snapshot.lock-wait.budget", "2 min");
                        });
        assertThat(plain.warnings()).isEmpty();
        assertThat(withSnapshotOptions.warnings())
                .containsExactly(
                        "Option 'scan.incremental.snapshot.chunk.size' is ignored in mode"
                                + " latest-offset: it applies only to scan.startup.mode 'initial'"
                                + " or 'snapshot'.",
                        "Option 'scan.snapshot.fetch.size' is ignored in mode latest-offset: it"
                                + " applies only to scan.startup.mode 'initial' or 'snapshot'.",
                        "Option 'scan.incremental.snapshot.chunk.key-column' is ignored in mode"
                                + " latest-offset: it applies only to scan.startup.mode 'initial'"
                                + " or 'snapshot'.",
                        "Option 'scan.snapshot.lock-wait.timeout' is ignored in mode"
                                + " latest-offset: it applies only to scan.startup.mode 'initial'"
                                + " or 'snapshot'.",
                        "Option 'scan.snapshot.lock-wait.budget' is ignored in mode"
                                + " latest-offset: it applies only to scan.startup.mode 'initial'"
                                + " or 'snapshot'.");
        assertThat(withSnapshotOptions.table().source())
                .as("no effect: the source is the one without the options")
                .isEqualTo(plain.table().source());
    }

    @Test
    void anIgnoredOptionIsNotChecked() {
        Validated v =
                validate(
                        o -> {
                            o.put("scan.startup.mode", "earliest-offset");
                            o.put("scan.incremental.snapshot.chunk.size", "0");
                            o.put("scan.snapshot.lock-wait.timeout", "not a duration");
                        });
        assertThat(v.warnings())
                .containsExactly(
                        "Option 'scan.incremental.snapshot.chunk.size' is ignored in mode"
                                + " earliest-offset: it applies only to scan.startup.mode"
                                + " 'initial' or 'snapshot'.",
                        "Option 'scan.snapshot.lock-wait.timeout' is ignored in mode"
                                + " earliest-offset: it applies only to scan.startup.mode"
                                + " 'initial' or 'snapshot'.");
    }

    @Test
    void startupArgumentsOfAnotherModeAreIgnoredWithAWarning() {
        Validated gtid =
                validate(
                        o -> {
                            o.put("scan.startup.mode", "initial");
                            o.put(
                                    "scan.startup.specific-offset.gtid-set",
                                    "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-2");
                            o.put("scan.startup.timestamp-millis", "1000");
                        });
        assertThat(gtid.warnings())
                .containsExactly(
                        "Option 'scan.startup.specific-offset.gtid-set' is ignored in mode"
                                + " initial: it applies only to scan.startup.mode"
                                + " 'specific-offset'.",
                        "Option 'scan.startup.timestamp-millis' is ignored in mode initial: it"
                                + " applies only to scan.startup.mode 'timestamp'.");
        assertThat(gtid.table().source().startupOptions()).isEqualTo(StartupOptions.initial());

        Validated timestamp =
                validate(
                        o -> {
                            o.put("scan.startup.mode", "TIMESTAMP");
                            o.put("scan.startup.timestamp-millis", "1000");
                            o.put("scan.startup.specific-offset.gtid-set", "not a gtid set");
                            o.put("scan.incremental.snapshot.chunk.size", "500");
                        });
        assertThat(timestamp.warnings())
                .containsExactly(
                        "Option 'scan.incremental.snapshot.chunk.size' is ignored in mode"
                                + " timestamp: it applies only to scan.startup.mode 'initial' or"
                                + " 'snapshot'.",
                        "Option 'scan.startup.specific-offset.gtid-set' is ignored in mode"
                                + " timestamp: it applies only to scan.startup.mode"
                                + " 'specific-offset'.");
        assertThat(timestamp.table().source().startupOptions())
                .isEqualTo(StartupOptions.timestamp(1000));
    }

    @Test
    void optionsOfTheChosenModeAreUsedWithoutWarnings() {
        Validated v =
                validate(
                        o -> {
                            o.put("scan.startup.mode", "snapshot");
                            o.put("scan.incremental.snapshot.chunk.size", "500");
                            o.put("scan.snapshot.lock-wait.budget", "2 min");
                        });
        assertThat(v.warnings()).isEmpty();
        assertThat(v.table().source().snapshot().chunkSize()).isEqualTo(500);
        Validated gtid =
                validate(
                        o -> {
                            o.put("scan.startup.mode", "specific-offset");
                            o.put(
                                    "scan.startup.specific-offset.gtid-set",
                                    "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-2");
                        });
        assertThat(gtid.warnings()).isEmpty();
    }

    @Test
    void anUnknownModeIsStillRefusedListingTheValidOnes() {
        Map<String, String> options = validOptions();
        options.put("scan.startup.mode", "newest");
        options.put("scan.incremental.snapshot.chunk.size", "500");
        Throwable t =
                catchThrowable(
                        () ->
                                TableOptionsValidation.validate(
                                        Configuration.fromMap(options), options, w -> {}));
        assertThat(allMessages(t))
                .contains("'scan.startup.mode'")
                .contains("'latest-offset'")
                .doesNotContain(PASSWORD);
    }

    @Test
    void theChunkKeyColumnStillNamesTheDeclaredKeyOfATableWithoutPrimaryKey() {
        ResolvedSchema declared =
                new ResolvedSchema(
                        List.of(
                                Column.physical("log_id", DataTypes.BIGINT().notNull()),
                                Column.physical("message", DataTypes.STRING())),
                        Collections.emptyList(),
                        UniqueConstraint.primaryKey("pk", List.of("log_id")));
        MySqlTableShape withoutPrimaryKey =
                new MySqlTableShape(
                        TableId.of("shop", "orders"),
                        List.of(
                                new MySqlTableShape.Column(
                                        "log_id", "BIGINT NOT NULL", new BigIntType(false)),
                                new MySqlTableShape.Column(
                                        "message", "VARCHAR(100)", new VarCharType(true, 100))),
                        List.of());
        Map<String, String> options = validOptions(); // latest-offset
        options.put("scan.incremental.snapshot.chunk.key-column", "log_id");
        CapstanMySqlTableSource source =
                (CapstanMySqlTableSource)
                        create(options, declared, config -> List.of(withoutPrimaryKey));
        assertThat(source.config().chunkKeyColumn()).contains("log_id");
        assertThat(source.config().source().snapshot().chunkKeyColumnForAllTables())
                .as("not used for reading in latest-offset")
                .isEmpty();
    }
}
