package io.capstan.flink.mysql;

import io.capstan.flink.mysql.testing.DocDefaults;
import io.capstan.flink.mysql.testing.DocTables;
import io.capstan.flink.mysql.testing.GeneratedDocs;

import org.apache.flink.configuration.ConfigOption;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/datastream.md's builder table is generated from the code: every option's description is its
 * meaning ({@link BuilderOptionsDoc}), every option is in it, and the page holds the rendering
 * (with {@code -Dcapstan.docs.write=true} this test rewrites it, see docs/testing.md).
 */
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
    void theBuilderTableInTheDocsIsTheRenderedOne() {
        GeneratedDocs.checkOrWrite(
                DocTables.doc("datastream.md"),
                BuilderOptionsDoc.REGION,
                BuilderOptionsDoc.render(),
                BuilderOptionsDoc.COMMAND);
    }

    @Test
    void everyOptionIsInTheBuilderTable() throws IllegalAccessException {
        List<ConfigOption<?>> options = allOptions();
        assertThat(options).hasSizeGreaterThan(15);
        for (ConfigOption<?> option : options) {
            assertThat(BuilderOptionsDoc.ROWS.stream().anyMatch(r -> r.options().contains(option)))
                    .as(
                            "option %s has a row in BuilderOptionsDoc (docs/datastream.md)",
                            option.key())
                    .isTrue();
        }
    }

    @Test
    void everyRowNamesItsOptionsAndABuilderMethodAndStatesTheOptionsDefault() {
        Set<String> methods =
                Arrays.stream(CapstanMySqlSourceBuilder.class.getMethods())
                        .map(Method::getName)
                        .collect(Collectors.toSet());
        for (BuilderOptionsDoc.Row row : BuilderOptionsDoc.ROWS) {
            List<String> cells = row.cells();
            for (String method : DocTables.codeSpans(cells.get(0))) {
                assertThat(methods)
                        .as("builder method of row %s", cells.get(0))
                        .contains(method.substring(0, method.indexOf('(')));
            }
            for (ConfigOption<?> option : row.options()) {
                assertThat(DocTables.codeSpans(cells.get(1)))
                        .as("option column of row %s", cells.get(0))
                        .anyMatch(span -> span.startsWith(option.key()));
                if (row.option() != null && option.hasDefaultValue()) {
                    assertThat(DocDefaults.matches(option, cells.get(2)))
                            .as(
                                    "default of %s: the row says '%s', the option %s",
                                    option.key(), cells.get(2), option.defaultValue())
                            .isTrue();
                }
            }
        }
        assertThat(BuilderOptionsDoc.ROWS)
                .anyMatch(
                        r ->
                                r.cells()
                                        .get(1)
                                        .equals(
                                                "`"
                                                        + CapstanMySqlOptions.JDBC_PROPERTIES_PREFIX
                                                        + "*`"));
    }

    @Test
    void everyDescriptionIsOneLineOfMarkdownWithLinksThatWorkOnEveryPage()
            throws IllegalAccessException {
        for (ConfigOption<?> option : allOptions()) {
            String text = GeneratedDocs.description(option);
            assertThat(text)
                    .as("description of %s", option.key())
                    .doesNotContain("\n")
                    .doesNotContain("](#")
                    .endsWith(".");
            assertThat(text.chars().filter(c -> c == '`').count() % 2)
                    .as("backticks of %s's description come in pairs", option.key())
                    .isZero();
        }
    }

    @Test
    void theTableAsTheDocsParseIt() throws IllegalAccessException {
        // The page as DocTables reads it: what users read is what the rows say.
        List<List<String>> rows =
                DocTables.tableUnder(DocTables.doc("datastream.md"), "## Builder options");
        for (ConfigOption<?> option : allOptions()) {
            assertThat(rows)
                    .as("option %s in docs/datastream.md", option.key())
                    .anyMatch(r -> DocTables.codeSpans(r.get(1)).contains(option.key()));
        }
    }
}
