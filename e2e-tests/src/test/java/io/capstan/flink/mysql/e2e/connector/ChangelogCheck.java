package io.capstan.flink.mysql.e2e.connector;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The exactly-once check of a changelog of {@code VersionedRowLines} against the source's truth.
 * Every write bumps a row's {@code ver} on the server, so for each row identity ({@code uid}) the
 * changes, ordered by the version they produce (an insert, update or snapshot read produces its
 * after image's {@code ver}, a delete {@code ver + 1} of its before image), must be:
 *
 * <ul>
 *   <li>each version exactly once (a replayed change repeats one);
 *   <li>consecutive (a lost change leaves a gap), starting with an insert at version 1 or a
 *       snapshot read (a lost insert or snapshot row starts later);
 *   <li>chained: an update or delete starts at the key the previous change left the row at;
 *   <li>ended by a delete at most, as the last change;
 * </ul>
 *
 * and the changelog applied by row identity must equal the table's final contents (a lost last
 * change or delete shows there). Problems name uids and versions only (test data, no secrets).
 */
public final class ChangelogCheck {
    private static final int MAX_REPORTED = 20;

    private ChangelogCheck() {}

    /** One change as the job writes it. */
    public record Change(
            String op, String table, long uid, Long idBefore, Long idAfter, long ver, long balance,
            String gtid, int index) {

        static Change parse(String line) {
            String[] f = line.split(",", -1);
            if (f.length != 9) {
                throw new IllegalArgumentException("Not a change line (9 fields expected): " + line);
            }
            return new Change(f[0], f[1], Long.parseLong(f[2]), id(f[3]), id(f[4]),
                    Long.parseLong(f[5]), Long.parseLong(f[6]), f[7], Integer.parseInt(f[8]));
        }

        private static Long id(String text) {
            return "-".equals(text) ? null : Long.valueOf(text);
        }

        /** The row version this change produces. */
        long producedVersion() {
            return "d".equals(op) ? ver + 1 : ver;
        }
    }

    /** A row of the table at the end: its identity, key, version and balance. */
    public record Row(long uid, long id, long ver, long balance) {}

    /** The outcome: the problems found (empty means exactly once) and counts for the report. */
    public record Result(List<String> problems, int changes, int rowIdentities, int snapshotReads) {
        public boolean passed() {
            return problems.isEmpty();
        }

        @Override
        public String toString() {
            return (passed() ? "exactly once" : problems.size() + " problem(s): " + problems)
                    + " [" + changes + " changes of " + rowIdentities + " rows, " + snapshotReads
                    + " snapshot reads]";
        }
    }

    public static Result check(List<String> lines, List<Row> finalTable) {
        List<String> problems = new ArrayList<>();
        Map<Long, List<Change>> byUid = new TreeMap<>();
        int reads = 0;
        for (String line : lines) {
            Change change = Change.parse(line);
            byUid.computeIfAbsent(change.uid(), u -> new ArrayList<>()).add(change);
            if ("r".equals(change.op())) {
                reads++;
            }
        }
        Map<Long, Row> applied = new HashMap<>();
        for (Map.Entry<Long, List<Change>> entry : byUid.entrySet()) {
            Row last = checkRow(entry.getKey(), entry.getValue(), problems);
            if (last != null) {
                applied.put(last.uid(), last);
            }
        }
        Map<Long, Row> table = new HashMap<>();
        for (Row row : finalTable) {
            table.put(row.uid(), row);
        }
        for (Long uid : new TreeSet<>(table.keySet())) {
            Row expected = table.get(uid);
            Row actual = applied.get(uid);
            if (!Objects.equals(expected, actual)) {
                problems.add("uid " + uid + ": table has " + expected + ", changelog gives " + actual);
            }
        }
        for (Long uid : new TreeSet<>(applied.keySet())) {
            if (!table.containsKey(uid)) {
                problems.add("uid " + uid + ": changelog gives " + applied.get(uid)
                        + ", the table has no such row");
            }
        }
        List<String> reported = problems.size() > MAX_REPORTED
                ? new ArrayList<>(problems.subList(0, MAX_REPORTED)) : problems;
        if (problems.size() > MAX_REPORTED) {
            reported.add("... and " + (problems.size() - MAX_REPORTED) + " more");
        }
        return new Result(List.copyOf(reported), lines.size(), byUid.size(), reads);
    }

    /** Checks one row identity's changes; returns the row they leave (null if deleted). */
    private static Row checkRow(long uid, List<Change> changes, List<String> problems) {
        changes.sort(Comparator.comparingLong(Change::producedVersion));
        Change first = changes.get(0);
        if (!("c".equals(first.op()) && first.ver() == 1) && !"r".equals(first.op())) {
            problems.add("uid " + uid + ": first change is " + first.op() + " producing version "
                    + first.producedVersion() + " (the insert or snapshot read before it is missing)");
        }
        Change previous = null;
        for (Change change : changes) {
            if (previous != null) {
                long expected = previous.producedVersion() + 1;
                if (change.producedVersion() == previous.producedVersion()) {
                    problems.add("uid " + uid + ": version " + change.producedVersion()
                            + " produced twice (" + previous.op() + ", " + change.op() + ")");
                } else if (change.producedVersion() != expected) {
                    problems.add("uid " + uid + ": versions " + expected + ".."
                            + (change.producedVersion() - 1) + " missing");
                }
                if ("c".equals(change.op()) || "r".equals(change.op())) {
                    problems.add("uid " + uid + ": " + change.op() + " at version " + change.ver()
                            + " after other changes of the row");
                }
                if ("d".equals(previous.op())) {
                    problems.add("uid " + uid + ": change at version " + change.producedVersion()
                            + " after its delete");
                }
                if (("u".equals(change.op()) || "d".equals(change.op()))
                        && !Objects.equals(change.idBefore(), previous.idAfter())) {
                    problems.add("uid " + uid + ": " + change.op() + " at version "
                            + change.producedVersion() + " starts at another key than the row was at");
                }
            }
            previous = change;
        }
        Change last = changes.get(changes.size() - 1);
        return "d".equals(last.op()) ? null : new Row(uid, last.idAfter(), last.ver(), last.balance());
    }
}
