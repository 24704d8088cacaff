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
 * Every write bumps a row's {@code ver} on the server, so the changes of each row identity ({@code
 * uid}, never reused), ordered by version (a delete right after the change that produced the
 * version it deletes), must form one chain:
 *
 * <ul>
 *   <li>it starts with an insert at version 1 or a snapshot read (a lost insert or snapshot row
 *       starts it with an update); when the snapshot ran, an insert may start at a later version (a
 *       key move from a chunk not yet read into one already read);
 *   <li>an update produces exactly the next version from the key the previous change left the row
 *       at, a delete removes exactly the version and key the previous change left (a replayed
 *       change repeats a version, a lost one leaves a gap or a key mismatch);
 *   <li>after a delete the row never comes back, except when the snapshot ran, as a snapshot read
 *       or insert of a later version at another key: during a snapshot, a key move from a chunk
 *       already read into one not yet read is a delete of the old key, and the row is read with the
 *       chunk of its new key (with the updates it had there in between); a move the other way is an
 *       insert at the new key;
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
            String op,
            String table,
            long uid,
            Long idBefore,
            Long idAfter,
            long ver,
            long balance,
            String gtid,
            int index) {

        static Change parse(String line) {
            String[] f = line.split(",", -1);
            if (f.length != 9) {
                throw new IllegalArgumentException(
                        "Not a change line (9 fields expected): " + line);
            }
            return new Change(
                    f[0],
                    f[1],
                    Long.parseLong(f[2]),
                    id(f[3]),
                    id(f[4]),
                    Long.parseLong(f[5]),
                    Long.parseLong(f[6]),
                    f[7],
                    Integer.parseInt(f[8]));
        }

        private static Long id(String text) {
            return "-".equals(text) ? null : Long.valueOf(text);
        }

        /** Sorts a row's changes by version, a delete right after the change it deletes. */
        long orderKey() {
            return 2 * ver + ("d".equals(op) ? 1 : 0);
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
                    + " ["
                    + changes
                    + " changes of "
                    + rowIdentities
                    + " rows, "
                    + snapshotReads
                    + " snapshot reads]";
        }
    }

    /**
     * The check of a changelog that streams from an empty table: no snapshot reads, every row
     * starts with an insert at version 1 and never comes back after its delete.
     */
    public static Result check(List<String> lines, List<Row> finalTable) {
        return check(lines, finalTable, false);
    }

    /**
     * {@code withSnapshot}: the changelog began with a snapshot, which allows the snapshot reads
     * and, after a delete, the comeback of a moved row described above.
     */
    public static Result check(List<String> lines, List<Row> finalTable, boolean withSnapshot) {
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
            Row last = checkRow(entry.getKey(), entry.getValue(), withSnapshot, problems);
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
                problems.add(
                        "uid " + uid + ": table has " + expected + ", changelog gives " + actual);
            }
        }
        for (Long uid : new TreeSet<>(applied.keySet())) {
            if (!table.containsKey(uid)) {
                problems.add(
                        "uid "
                                + uid
                                + ": changelog gives "
                                + applied.get(uid)
                                + ", the table has no such row");
            }
        }
        List<String> reported =
                problems.size() > MAX_REPORTED
                        ? new ArrayList<>(problems.subList(0, MAX_REPORTED))
                        : problems;
        if (problems.size() > MAX_REPORTED) {
            reported.add("... and " + (problems.size() - MAX_REPORTED) + " more");
        }
        return new Result(List.copyOf(reported), lines.size(), byUid.size(), reads);
    }

    /** Checks one row identity's changes; returns the row they leave (null if deleted). */
    private static Row checkRow(
            long uid, List<Change> changes, boolean withSnapshot, List<String> problems) {
        changes.sort(Comparator.comparingLong(Change::orderKey));
        Change first = changes.get(0);
        boolean startsRow =
                "r".equals(first.op()) && withSnapshot
                        || "c".equals(first.op()) && (first.ver() == 1 || withSnapshot);
        if (!startsRow) {
            problems.add(
                    "uid "
                            + uid
                            + ": first change is "
                            + first.op()
                            + " at version "
                            + first.ver()
                            + " (the insert or snapshot read before it is missing)");
        }
        Change previous = null;
        for (Change change : changes) {
            if (previous != null) {
                String problem = followProblem(previous, change, withSnapshot);
                if (problem != null) {
                    problems.add(
                            "uid "
                                    + uid
                                    + ": "
                                    + change.op()
                                    + " at version "
                                    + change.ver()
                                    + " after "
                                    + previous.op()
                                    + " at version "
                                    + previous.ver()
                                    + ": "
                                    + problem);
                }
            }
            previous = change;
        }
        Change last = changes.get(changes.size() - 1);
        return "d".equals(last.op())
                ? null
                : new Row(uid, last.idAfter(), last.ver(), last.balance());
    }

    /** Why {@code next} cannot follow {@code previous} in one row's chain, or null if it can. */
    private static String followProblem(Change previous, Change next, boolean withSnapshot) {
        boolean previousDeleted = "d".equals(previous.op());
        switch (next.op()) {
            case "u", "d" -> {
                if (previousDeleted) {
                    return "the row was deleted";
                }
                long expected = "u".equals(next.op()) ? previous.ver() + 1 : previous.ver();
                if (next.ver() != expected) {
                    return next.ver() < expected
                            ? "version repeated"
                            : "versions missing in between";
                }
                if (!Objects.equals(next.idBefore(), previous.idAfter())) {
                    return "it starts at another key than the row was at";
                }
                return null;
            }
            case "c", "r" -> {
                if (!previousDeleted || !withSnapshot) {
                    return "the row was there already";
                }
                if (next.ver() <= previous.ver()) {
                    return "version repeated";
                }
                if (Objects.equals(next.idAfter(), previous.idBefore())) {
                    return "it comes back at the key it was deleted from";
                }
                return null;
            }
            default -> {
                return "unknown operation";
            }
        }
    }
}
