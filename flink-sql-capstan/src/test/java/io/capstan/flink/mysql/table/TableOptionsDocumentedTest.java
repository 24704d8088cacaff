package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.testing.DocDefaults;
import io.capstan.flink.mysql.testing.DocTables;

import org.apache.flink.configuration.ConfigOption;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/sql.md's option table stays the truth: every option the factory takes, with its default. */
class TableOptionsDocumentedTest {

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
