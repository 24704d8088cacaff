package io.capstan.flink.mysql;

import io.capstan.flink.mysql.testing.DocDefaults;
import io.capstan.flink.mysql.testing.DocTables;

import org.apache.flink.configuration.ConfigOption;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/datastream.md's builder table stays the truth: every option is in it, with its default. */
class CapstanMySqlOptionsDocumentedTest {

    static List<ConfigOption<?>> allOptions() throws IllegalAccessException {
        List<ConfigOption<?>> options = new ArrayList<>();
        for (Field f : CapstanMySqlOptions.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == ConfigOption.class) {
                options.add((ConfigOption<?>) f.get(null));
            }
        }
        return options;
    }

    @Test
    void everyOptionIsInTheBuilderTableWithItsDefault() throws IllegalAccessException {
        List<List<String>> rows =
                DocTables.tableUnder(DocTables.doc("datastream.md"), "## Builder options");
        List<ConfigOption<?>> options = allOptions();
        assertThat(options).hasSizeGreaterThan(15);
        for (ConfigOption<?> option : options) {
            List<List<String>> documenting =
                    rows.stream()
                            .filter(r -> DocTables.codeSpans(r.get(1)).contains(option.key()))
                            .toList();
            assertThat(documenting)
                    .as("option %s in docs/datastream.md", option.key())
                    .isNotEmpty();
            List<String> row = documenting.get(0);
            if (option.hasDefaultValue() && DocTables.codeSpans(row.get(1)).size() == 1) {
                assertThat(DocDefaults.matches(option, row.get(2)))
                        .as(
                                "default of %s: docs say '%s', the option %s",
                                option.key(), row.get(2), option.defaultValue())
                        .isTrue();
            }
        }
        assertThat(
                        rows.stream()
                                .anyMatch(
                                        r ->
                                                DocTables.codeSpans(r.get(1))
                                                        .contains(
                                                                CapstanMySqlOptions
                                                                                .JDBC_PROPERTIES_PREFIX
                                                                        + "*")))
                .as("jdbc.properties.* in docs/datastream.md")
                .isTrue();
    }
}
