package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.testing.DocDefaults;
import io.capstan.flink.mysql.testing.DocTables;
import io.capstan.flink.mysql.testing.GeneratedDocs;

import org.apache.flink.configuration.ConfigOption;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * docs/sql.md's option tables stay the truth: the option table is generated from the options'
 * descriptions ({@link SqlOptionsDoc}; with {@code -Dcapstan.docs.write=true} this test rewrites
 * it, see docs/testing.md) and holds every option the factory takes, with its default; and every
 * option and metadata column of mysql-cdc is in the migration table, with a verdict that holds.
 */
class TableOptionsDocumentedTest {

    @Test
    void theOptionTableInTheDocsIsTheRenderedOne() {
        GeneratedDocs.checkOrWrite(
                DocTables.doc("sql.md"),
                SqlOptionsDoc.REGION,
                SqlOptionsDoc.render(new CapstanMySqlTableFactory().requiredOptions()),
                SqlOptionsDoc.COMMAND);
    }

    @Test
    void theRenderedTableHasEveryOptionOfTheFactoryOnceAndNoOther() {
        CapstanMySqlTableFactory factory = new CapstanMySqlTableFactory();
        List<ConfigOption<?>> taken = new ArrayList<>(factory.requiredOptions());
        taken.addAll(factory.optionalOptions());
        List<ConfigOption<?>> documented = new ArrayList<>();
        for (SqlOptionsDoc.Row row : SqlOptionsDoc.ROWS) {
            if (row.option() != null) {
                documented.add(row.option());
            }
        }
        assertThat(documented)
                .as("the options of SqlOptionsDoc (docs/sql.md), against the factory's")
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(taken);
    }

    /**
     * The options of Flink CDC's mysql-cdc table connector (its {@code MySqlTableSourceFactory}'s
     * required and optional options, Flink CDC 3.x, and its two pass-through prefixes). Data.
     */
    private static final List<String> MYSQL_CDC_OPTIONS =
            List.of(
                    "connector",
                    "hostname",
                    "port",
                    "username",
                    "password",
                    "database-name",
                    "table-name",
                    "server-time-zone",
                    "server-id",
                    "scan.startup.mode",
                    "scan.startup.specific-offset.file",
                    "scan.startup.specific-offset.pos",
                    "scan.startup.specific-offset.gtid-set",
                    "scan.startup.specific-offset.skip-events",
                    "scan.startup.specific-offset.skip-rows",
                    "scan.startup.timestamp-millis",
                    "scan.incremental.snapshot.enabled",
                    "scan.incremental.snapshot.chunk.size",
                    "chunk-meta.group.size",
                    "scan.snapshot.fetch.size",
                    "connect.timeout",
                    "connection.pool.size",
                    "chunk-key.even-distribution.factor.upper-bound",
                    "chunk-key.even-distribution.factor.lower-bound",
                    "connect.max-retries",
                    "scan.newly-added-table.enabled",
                    "scan.incremental.close-idle-reader.enabled",
                    "heartbeat.interval",
                    "scan.incremental.snapshot.chunk.key-column",
                    "scan.incremental.snapshot.backfill.skip",
                    "scan.parse.online.schema.changes.enabled",
                    "use.legacy.json.format",
                    "scan.incremental.snapshot.unbounded-chunk-first.enabled",
                    "scan.read-changelog-as-append-only.enabled",
                    "debezium.*",
                    "jdbc.properties.*");

    /** mysql-cdc's metadata columns (its {@code MySqlReadableMetadata}). Data. */
    private static final List<String> MYSQL_CDC_METADATA =
            List.of("table_name", "database_name", "op_ts", "row_kind");

    private static final Set<String> ACCEPTED = Set.of("same", "differs", "no-op", "partly");
    private static final Set<String> NOT_ACCEPTED = Set.of("refused", "not yet");

    @Test
    void migrationTableGivesEveryMysqlCdcOptionAVerdictThatHolds() {
        List<List<String>> rows =
                DocTables.tableUnder(DocTables.doc("sql.md"), "## Migrating from mysql-cdc");
        CapstanMySqlTableFactory factory = new CapstanMySqlTableFactory();
        Set<String> taken = new LinkedHashSet<>(List.of("connector", "jdbc.properties.*"));
        for (ConfigOption<?> option : factory.requiredOptions()) {
            taken.add(option.key());
        }
        for (ConfigOption<?> option : factory.optionalOptions()) {
            taken.add(option.key());
        }
        for (String key : MYSQL_CDC_OPTIONS) {
            String verdict = verdict(rows, key, key);
            if (key.equals("debezium.*")) {
                // per key (docs/sql.md's debezium table): a harmless value passes, others not
                assertThat(verdict).isEqualTo("partly");
                Map<String, String> harmless = TableFixtures.validOptions();
                harmless.put("debezium.snapshot.mode", "initial");
                assertThat(TableFixtures.create(harmless)).isNotNull();
                Map<String, String> changing = TableFixtures.validOptions();
                changing.put("debezium.snapshot.mode", "never");
                assertThat(catchThrowable(() -> TableFixtures.create(changing))).isNotNull();
            } else if (taken.contains(key)) {
                assertThat(verdict)
                        .as("verdict of %s, which the factory takes", key)
                        .isIn(ACCEPTED);
            } else {
                assertThat(verdict)
                        .as("verdict of %s, which the factory lacks", key)
                        .isIn(NOT_ACCEPTED);
                Map<String, String> options = TableFixtures.validOptions();
                options.put(key, "1");
                assertThat(catchThrowable(() -> TableFixtures.create(options)))
                        .as("%s is documented as %s", key, verdict)
                        .isNotNull();
            }
        }
        for (ConfigOption<?> compatible : MySqlCdcCompatibleOptions.ALL) {
            assertThat(verdict(rows, compatible.key(), compatible.key())).isIn("no-op", "partly");
        }
        for (String key : MYSQL_CDC_METADATA) {
            String verdict = verdict(rows, "metadata `" + key + "`", key);
            boolean ours = MetadataColumn.ofKey(key).isPresent();
            assertThat(verdict).as("metadata %s", key).isIn(ours ? ACCEPTED : NOT_ACCEPTED);
        }
    }

    /**
     * The verdict cell of the row whose first cell is {@code firstCell} naming only {@code key}.
     */
    private static String verdict(List<List<String>> rows, String firstCell, String key) {
        List<String> row =
                rows.stream()
                        .filter(
                                r ->
                                        (r.get(0).equals(firstCell)
                                                        || r.get(0).equals("`" + firstCell + "`"))
                                                && DocTables.codeSpans(r.get(0))
                                                        .equals(List.of(key)))
                        .findFirst()
                        .orElse(null);
        assertThat(row).as("%s in the migration table of docs/sql.md", firstCell).isNotNull();
        return row.get(1);
    }

    @Test
    void everyOptionOfTheFactoryIsInTheTableWithItsDefault() {
        CapstanMySqlTableFactory factory = new CapstanMySqlTableFactory();
        Set<ConfigOption<?>> options = new LinkedHashSet<>(factory.requiredOptions());
        options.addAll(factory.optionalOptions());
        List<List<String>> rows = DocTables.tableUnder(DocTables.doc("sql.md"), "## Options");
        for (ConfigOption<?> option : options) {
            List<String> row =
                    rows.stream()
                            .filter(
                                    r ->
                                            DocTables.codeSpans(r.get(0))
                                                    .equals(List.of(option.key())))
                            .findFirst()
                            .orElse(null);
            assertThat(row).as("option %s in docs/sql.md", option.key()).isNotNull();
            assertThat(row.get(1).equals("yes"))
                    .as("required column of %s", option.key())
                    .isEqualTo(factory.requiredOptions().contains(option));
            if (option.hasDefaultValue()) {
                assertThat(DocDefaults.matches(option, row.get(2)))
                        .as(
                                "default of %s: docs say '%s', the option %s",
                                option.key(), row.get(2), option.defaultValue())
                        .isTrue();
            }
        }
        for (String other :
                List.of("connector", CapstanMySqlTableOptions.JDBC_PROPERTIES_PREFIX + "*")) {
            assertThat(
                            rows.stream()
                                    .anyMatch(
                                            r ->
                                                    DocTables.codeSpans(r.get(0))
                                                            .equals(List.of(other))))
                    .as("%s in docs/sql.md", other)
                    .isTrue();
        }
    }
}
