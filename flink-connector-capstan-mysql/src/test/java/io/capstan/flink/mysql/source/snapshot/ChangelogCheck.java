package io.capstan.flink.mysql.source.snapshot;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Applies a changelog of {@link SnapshotLineDeserializer} lines by key, strictly. Violations: a
 * read or insert of a present key; a delete or update whose before image is not the key's current
 * row (same seq and version); an update whose after image is not the next version of its before
 * image; and the same row version ({@code seq}, {@code ver}) appearing twice as a read or an after
 * image (every write makes a new version, so a repeat is a duplicate, e.g. a change the snapshot
 * already held). One duplicate, one gap (a later before image no longer matches) or one stale image
 * shows. Versions of one {@code seq} may legitimately skip when its key moved between chunks read
 * at different positions; per key they never do.
 */
public final class ChangelogCheck {

    /** A row: its seq and version. */
    record Row(long seq, int ver) {}

    private final Map<String, Map<Long, Row>> tables = new HashMap<>();
    private final java.util.Set<String> versionsSeen = new java.util.HashSet<>(); // table|seq|ver
    private final List<String> violations = new ArrayList<>();
    private long reads;
    private long changes;

    public static ChangelogCheck apply(List<String> lines) {
        ChangelogCheck c = new ChangelogCheck();
        for (String line : lines) {
            c.apply(line);
        }
        return c;
    }

    private void apply(String line) {
        String[] f = line.split("\\|");
        String table = f[0];
        Map<Long, Row> rows = tables.computeIfAbsent(table, k -> new TreeMap<>());
        long id = Long.parseLong(f[2]);
        Row row = new Row(Long.parseLong(f[3]), Integer.parseInt(f[4]));
        switch (f[1]) {
            case "r":
                reads++;
                put(table, rows, id, row, line, true);
                break;
            case "c":
                changes++;
                put(table, rows, id, row, line, false);
                break;
            case "d":
                changes++;
                remove(rows, id, row, line);
                break;
            case "u":
                changes++;
                remove(rows, id, row, line);
                Row after = new Row(Long.parseLong(f[6]), Integer.parseInt(f[7]));
                if (after.seq() != row.seq() || after.ver() != row.ver() + 1) {
                    violations.add("after image is not the next version: " + line);
                }
                put(table, rows, Long.parseLong(f[5]), after, line, false);
                break;
            default:
                violations.add("unknown line " + line);
        }
    }

    private void put(
            String table, Map<Long, Row> rows, long id, Row row, String line, boolean read) {
        if (rows.containsKey(id)) {
            violations.add("key present: " + line);
        }
        rows.put(id, row);
        if (!versionsSeen.add(table + "|" + row.seq() + "|" + row.ver())) {
            violations.add("row version seen twice: " + line);
        }
    }

    private void remove(Map<Long, Row> rows, long id, Row expected, String line) {
        Row current = rows.remove(id);
        if (!Objects.equals(current, expected)) {
            violations.add("before image is not the current row (" + current + "): " + line);
        }
    }

    public List<String> violations() {
        return violations;
    }

    public Map<Long, Row> rows(String table) {
        return tables.getOrDefault(table, Map.of());
    }

    public long reads() {
        return reads;
    }

    public long changes() {
        return changes;
    }
}
