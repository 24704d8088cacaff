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

/** docs/halts.md is the one catalogue of halts: every reason has exactly one row there. */
@Tag(FlinkLines.NEUTRAL)
class HaltCatalogueTest {

    private static final Pattern CATALOGUE_ROW = Pattern.compile("(?m)^\\| `([a-z_]+)` \\|");

    @Test
    void everyHaltReasonHasOneRowWithARemedyInTheCatalogue() throws IOException {
        List<String> rows = catalogueCodes();
        for (HaltReason reason : HaltReason.values()) {
            assertThat(rows)
                    .as("docs/halts.md catalogue rows for %s", reason.code())
                    .containsOnlyOnce(reason.code());
        }
    }

    @Test
    void theCatalogueNamesNoReasonThatDoesNotExist() throws IOException {
        List<String> codes = new ArrayList<>();
        for (HaltReason reason : HaltReason.values()) {
            codes.add(reason.code());
        }
        assertThat(codes).containsAll(catalogueCodes());
    }

    private static List<String> catalogueCodes() throws IOException {
        String doc = Files.readString(halts(), StandardCharsets.UTF_8);
        String catalogue =
                doc.substring(
                        doc.indexOf("## Catalogue"), doc.indexOf("## Halts are not restarted"));
        List<String> codes = new ArrayList<>();
        Matcher m = CATALOGUE_ROW.matcher(catalogue);
        while (m.find()) {
            codes.add(m.group(1));
        }
        return codes;
    }

    /** The module's tests run with the module as working directory; docs/ is beside it. */
    private static Path halts() {
        Path fromModule = Path.of("..", "docs", "halts.md");
        return Files.exists(fromModule) ? fromModule : Path.of("docs", "halts.md");
    }
}
