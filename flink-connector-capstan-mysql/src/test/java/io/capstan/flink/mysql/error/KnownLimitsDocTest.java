package io.capstan.flink.mysql.error;

import io.capstan.flink.mysql.testing.FlinkLines;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * README's "Known limits" agree with docs/halts.md: every halt the paragraph names is a halt reason
 * with a row in the catalogue, and what it says of XA transactions is what halts.md says (they are
 * delivered; only named edge cases halt).
 */
@Tag(FlinkLines.NEUTRAL)
class KnownLimitsDocTest {

    /** A halt named in prose: "halt `code`". */
    private static final Pattern NAMED_HALT = Pattern.compile("halt `([a-z_]+)`");

    private static final Pattern CATALOGUE_ROW = Pattern.compile("(?m)^\\| `([a-z_]+)` \\|");

    @Test
    void everyHaltTheKnownLimitsNameIsAReasonInTheCatalogue() throws IOException {
        List<String> named = new ArrayList<>();
        Matcher m = NAMED_HALT.matcher(knownLimits());
        while (m.find()) {
            named.add(m.group(1));
        }
        List<String> reasons = new ArrayList<>();
        for (HaltReason reason : HaltReason.values()) {
            reasons.add(reason.code());
        }
        List<String> catalogue = new ArrayList<>();
        Matcher row = CATALOGUE_ROW.matcher(read("docs", "halts.md"));
        while (row.find()) {
            catalogue.add(row.group(1));
        }
        assertThat(named).as("halts README's known limits name").isNotEmpty();
        assertThat(reasons).as("halt reasons").containsAll(named);
        assertThat(catalogue).as("docs/halts.md catalogue rows").containsAll(named);
    }

    @Test
    void xaTransactionsAreDeliveredInBothDocuments() throws IOException {
        String limits = knownLimits();
        assertThat(read("docs", "halts.md")).contains("XA transactions themselves are delivered");
        assertThat(limits)
                .contains("XA transactions are delivered")
                .doesNotContainPattern("XA transactions (halt|are refused|are not supported)");
        // The XA halts halts.md catalogues as edge cases are the ones README names.
        for (String xaHalt : List.of("xa_prepared_before_start", "xa_pending_rows_exceeded")) {
            assertThat(limits).contains("halt `" + xaHalt + "`");
        }
    }

    /** README's paragraph that starts "Known limits:". */
    private static String knownLimits() throws IOException {
        String readme = read("README.md");
        int start = readme.indexOf("Known limits:");
        assertThat(start).as("README.md has a 'Known limits:' paragraph").isNotNegative();
        int end = readme.indexOf("\n\n", start);
        return readme.substring(start, end < 0 ? readme.length() : end).replace('\n', ' ');
    }

    /**
     * The module's tests run with the module as working directory; the repository is its parent.
     */
    private static String read(String first, String... more) throws IOException {
        Path fromModule = Path.of("..", first).resolve(Path.of("", more));
        Path path = Files.exists(fromModule) ? fromModule : Path.of(first, more);
        return Files.readString(path, StandardCharsets.UTF_8);
    }
}
