package io.capstan.flink.mysql.testing;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.description.BlockElement;
import org.apache.flink.configuration.description.Description;
import org.apache.flink.configuration.description.TextElement;
import org.apache.flink.util.TimeUtils;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Generated regions of the docs: a Markdown table rendered from the code, held in a page between
 * {@code <!-- generated: NAME ... -->} and {@code <!-- end generated: NAME -->}. A test compares
 * the region with the rendering and fails naming the command that rewrites it; with {@code
 * -Dcapstan.docs.write=true} it writes the region instead (docs/testing.md).
 *
 * <p>Option descriptions are plain text written in Markdown (code in backticks, links relative to
 * docs/ and naming their page, {@code [x](sql.md#anchor)}, so that they work in every page that
 * shows them): one {@link TextElement} without placeholders, as {@link
 * org.apache.flink.configuration.ConfigOptions.OptionBuilder}'s {@code withDescription(String)}
 * makes it.
 */
public final class GeneratedDocs {

    /** Set to {@code true}, the docs tests write their regions instead of comparing them. */
    public static final String WRITE_PROPERTY = "capstan.docs.write";

    private GeneratedDocs() {}

    /** A Markdown table: the header row, the separator, one line per row. */
    public static String table(List<String> header, List<List<String>> rows) {
        StringBuilder out = new StringBuilder();
        out.append(line(header));
        out.append(line(header.stream().map(h -> "---").toList()));
        for (List<String> row : rows) {
            if (row.size() != header.size()) {
                throw new IllegalArgumentException(
                        "row " + row + " has " + row.size() + " cells, the header " + header);
            }
            out.append(line(row));
        }
        return out.toString();
    }

    private static String line(List<String> cells) {
        StringBuilder line = new StringBuilder("|");
        for (String cell : cells) {
            String text = cell(cell);
            line.append(text.isEmpty() ? " |" : " " + text + " |");
        }
        return line.append('\n').toString();
    }

    private static String cell(String text) {
        if (text.contains("\n")) {
            throw new IllegalArgumentException("a table cell has no line break: " + text);
        }
        boolean code = false;
        for (char c : text.toCharArray()) {
            if (c == '`') {
                code = !code;
            } else if (c == '|' && !code) {
                throw new IllegalArgumentException(
                        "a '|' outside a code span would split the table cell: " + text);
            }
        }
        return text.trim();
    }

    /**
     * The description of {@code option} as Markdown text; fails unless it is one plain text element
     * (no Flink placeholders, no lists or line breaks), the form these docs render.
     */
    public static String description(ConfigOption<?> option) {
        Description description = option.description();
        List<BlockElement> blocks = description.getBlocks();
        if (blocks.size() != 1
                || !(blocks.get(0) instanceof TextElement text)
                || !text.getElements().isEmpty()
                || text.getFormat().isBlank()) {
            throw new IllegalStateException(
                    "option "
                            + option.key()
                            + ": its description must be one plain Markdown text"
                            + " (withDescription(String)), not empty");
        }
        return text.getFormat();
    }

    /** A default value as the docs write it: {@code `3306`}, {@code `30 s`}, {@code `true`}. */
    public static String defaultValue(ConfigOption<?> option) {
        if (!option.hasDefaultValue()) {
            return "";
        }
        Object value = option.defaultValue();
        String text;
        if (value instanceof Duration d) {
            // up to a minute in seconds, as the docs write timeouts ("60 s"), else Flink's form
            boolean seconds = d.getNano() == 0 && d.getSeconds() <= 60 && !d.isZero();
            text = seconds ? d.getSeconds() + " s" : TimeUtils.formatWithHighestUnit(d);
        } else {
            text = String.valueOf(value);
        }
        return "`" + text + "`";
    }

    /**
     * Compares the region {@code name} of {@code doc} with {@code rendered}, or with {@code
     * -Dcapstan.docs.write=true} writes it there.
     *
     * @param command the Maven command that rewrites the region, for the failure message
     */
    public static void checkOrWrite(Path doc, String name, String rendered, String command) {
        String begin = "<!-- generated: " + name + " ";
        String end = "<!-- end generated: " + name + " -->";
        String text;
        try {
            text = Files.readString(doc, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int open = text.indexOf(begin);
        int close = text.indexOf(end);
        if (open < 0 || close < open) {
            throw new AssertionError(
                    doc
                            + " has no region '"
                            + name
                            + "': it needs a line starting '"
                            + begin
                            + "' and, after it, the line '"
                            + end
                            + "'");
        }
        int from = text.indexOf('\n', open) + 1;
        String current = text.substring(from, close);
        if (current.equals(rendered)) {
            return;
        }
        if (Boolean.getBoolean(WRITE_PROPERTY)) {
            try {
                Files.writeString(
                        doc,
                        text.substring(0, from) + rendered + text.substring(close),
                        StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return;
        }
        throw new AssertionError(
                doc
                        + ": the generated region '"
                        + name
                        + "' is not what the code renders (first difference: "
                        + firstDifference(current, rendered)
                        + "). The table is generated from the options' descriptions: do not edit"
                        + " it by hand, change the code and rewrite it with\n  "
                        + command
                        + "\n(see docs/testing.md, 'Generated option tables')");
    }

    private static String firstDifference(String current, String rendered) {
        String[] a = current.split("\n", -1);
        String[] b = rendered.split("\n", -1);
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            String x = i < a.length ? a[i] : "<none>";
            String y = i < b.length ? b[i] : "<none>";
            if (!x.equals(y)) {
                return "line " + (i + 1) + " of the region, docs: '" + x + "', code: '" + y + "'";
            }
        }
        return "none";
    }
}
