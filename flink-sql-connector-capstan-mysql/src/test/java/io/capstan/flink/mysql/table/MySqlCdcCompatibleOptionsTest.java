package io.capstan.flink.mysql.table;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;
import java.util.function.Consumer;

import static io.capstan.flink.mysql.table.TableFixtures.PASSWORD;
import static io.capstan.flink.mysql.table.TableFixtures.allMessages;
import static io.capstan.flink.mysql.table.TableFixtures.create;
import static io.capstan.flink.mysql.table.TableFixtures.validOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** mysql-cdc options capstan takes as no-ops or as flags whose other value it refuses. */
class MySqlCdcCompatibleOptionsTest {

    private static Map<String, String> options(Consumer<Map<String, String>> change) {
        Map<String, String> options = validOptions();
        options.put("server-id", "5401"); // an unset id is drawn at random: fix it to compare
        change.accept(options);
        return options;
    }

    private static String failure(Consumer<Map<String, String>> change) {
        Throwable t = catchThrowable(() -> create(options(change)));
        assertThat(t).as("planning must fail").isNotNull();
        String messages = allMessages(t);
        assertThat(messages).doesNotContain(PASSWORD);
        return messages;
    }

    @ParameterizedTest
    @CsvSource({
        "scan.incremental.snapshot.backfill.skip, true",
        "scan.incremental.close-idle-reader.enabled, true",
        "chunk-meta.group.size, 7",
        "chunk-key.even-distribution.factor.upper-bound, 10.5",
        "chunk-key.even-distribution.factor.lower-bound, 0.5",
        "split-key.even-distribution.factor.upper-bound, 10.5",
        "split-key.even-distribution.factor.lower-bound, 0.5",
        "scan.incremental.snapshot.unbounded-chunk-first.enabled, true",
        "scan.incremental.snapshot.enabled, true"
    })
    void acceptedAndWithoutEffect(String key, String value) {
        for (String mode : new String[] {"initial", "latest-offset"}) {
            Object plain = create(options(o -> o.put("scan.startup.mode", mode)));
            Object with =
                    create(
                            options(
                                    o -> {
                                        o.put("scan.startup.mode", mode);
                                        o.put(key, value);
                                    }));
            assertThat(with).as("%s in mode %s", key, mode).isEqualTo(plain);
        }
    }

    @Test
    void valuesOfTheWrongTypeAreRefusedByName() {
        assertThat(failure(o -> o.put("chunk-meta.group.size", "many")))
                .contains("chunk-meta.group.size");
        assertThat(failure(o -> o.put("scan.incremental.snapshot.backfill.skip", "maybe")))
                .contains("scan.incremental.snapshot.backfill.skip");
        assertThat(failure(o -> o.put("chunk-key.even-distribution.factor.lower-bound", "low")))
                .contains("chunk-key.even-distribution.factor.lower-bound");
    }

    @Test
    void incrementalSnapshotDisabledIsRefusedWithARemedy() {
        assertThat(failure(o -> o.put("scan.incremental.snapshot.enabled", "false")))
                .contains("'scan.incremental.snapshot.enabled' = 'false' is not supported")
                .contains("remove the option or set it to 'true'");
    }

    @Test
    void newlyAddedTablesAreTakenInInitialModeAndRefusedByNameInStreamOnlyModes() {
        Object plain = create(options(o -> o.put("scan.startup.mode", "initial")));
        Object off =
                create(
                        options(
                                o -> {
                                    o.put("scan.startup.mode", "initial");
                                    o.put("scan.newly-added-table.enabled", "false");
                                }));
        Object on =
                create(
                        options(
                                o -> {
                                    o.put("scan.startup.mode", "initial");
                                    o.put("scan.newly-added-table.enabled", "true");
                                }));
        assertThat(off).isEqualTo(plain);
        assertThat(on).as("the switch reaches the source configuration").isNotEqualTo(plain);
        assertThat(
                        failure(
                                o -> {
                                    o.put("scan.startup.mode", "latest-offset");
                                    o.put("scan.newly-added-table.enabled", "true");
                                }))
                .contains("scan.newly-added-table.enabled")
                .contains("'latest-offset'")
                .contains("'initial'");
    }
}
