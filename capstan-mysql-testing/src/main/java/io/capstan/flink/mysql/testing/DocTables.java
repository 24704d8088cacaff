package io.capstan.flink.mysql.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the option tables of the docs, so that tests can hold the code to them. */
public final class DocTables {

    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");

    private DocTables() {}

    /** A page of docs/, found from the module's or the repository's directory. */
    public static Path doc(String name) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("docs").resolve(name);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(
                "docs/" + name + " not found above " + Path.of("").toAbsolutePath());
    }

    /**
     * The body rows of the first Markdown table after the heading line {@code heading}, each as its
     * trimmed cells (header and separator rows left out).
     */
    public static List<List<String>> tableUnder(Path doc, String heading) {
        List<String> lines;
        try {
            lines = Files.readAllLines(doc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int at = lines.indexOf(heading);
        if (at < 0) {
            throw new IllegalStateException(doc + " has no heading '" + heading + "'");
        }
        List<List<String>> rows = new ArrayList<>();
        boolean inTable = false;
        for (int i = at + 1; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.startsWith("|")) {
                inTable = true;
                rows.add(cells(line));
            } else if (inTable || line.startsWith("#")) {
                break;
            }
        }
        if (rows.size() < 3) {
            throw new IllegalStateException(doc + ": no option table under '" + heading + "'");
        }
        return rows.subList(2, rows.size());
    }

    /** The text inside backticks in a cell, in order. */
    public static List<String> codeSpans(String cell) {
        List<String> spans = new ArrayList<>();
        Matcher m = CODE_SPAN.matcher(cell);
        while (m.find()) {
            spans.add(m.group(1));
        }
        return spans;
    }

    private static List<String> cells(String row) {
        // Split on pipes that are not inside a code span (a regex in a cell may hold one).
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean code = false;
        for (int i = 1; i < row.length(); i++) {
            char c = row.charAt(i);
            if (c == '`') {
                code = !code;
            }
            if (c == '|' && !code) {
                cells.add(cell.toString().trim());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        return cells;
    }
}
