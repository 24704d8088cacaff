package io.capstan.flink.mysql.snapshot.jdbc;

import io.capstan.flink.mysql.snapshot.key.KeyComparator;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One column's rows in the server's order, with both weighings, and the checks against the server's
 * own comparisons.
 */
record ServerOrderedColumn(
        KeyComparator order,
        List<Integer> ids,
        List<String> texts,
        List<String> keyTexts,
        List<KeyTuple> stored,
        List<byte[]> storedWeights,
        List<KeyTuple> bound,
        List<byte[]> boundWeights) {

    private static final int RANDOM_PAIRS = 4000;
    private static final int PAIRS_PER_INSERT = 2000;

    /**
     * Checks against the server's comparisons, asked as {@code root}, who fills the pairs table.
     */
    void checkAgainstServer(Connection root, String table, String column, Disagreements problems)
            throws SQLException {
        int n = ids.size();
        for (int i = 0; i < n; i++) {
            if (!keyTexts.get(i).equals(texts.get(i))) {
                // The text a boundary carries is bound in chunk predicates: it must be the
                // stored value, whatever the column's character set.
                int at = i;
                problems.add(
                        column + ": key text read by JdbcKeyValues is not the value",
                        () -> show(at) + " read as '" + visible(keyTexts.get(at)) + "'");
            }
            if (order.compare(stored.get(i), bound.get(i)) != 0) {
                int at = i;
                problems.add(column + ": column weight != parameter weight", () -> show(at));
            }
        }
        // Pairs of positions: every adjacent pair in the server's order, then random ones.
        List<int[]> pairs = new ArrayList<>();
        for (int i = 0; i + 1 < n; i++) {
            pairs.add(new int[] {i, i + 1});
        }
        Random random = new Random(table.hashCode() * 31L + column.hashCode());
        for (int k = 0; k < RANDOM_PAIRS; k++) {
            pairs.add(new int[] {random.nextInt(n), random.nextInt(n)});
        }
        int[][] server = serverCompare(root, table, column, pairs);
        boolean[] tiedToNext = new boolean[n];
        for (int p = 0; p < pairs.size(); p++) {
            int i = pairs.get(p)[0];
            int j = pairs.get(p)[1];
            int strcmp = server[p][0];
            if ((strcmp == 0) != (server[p][1] == 1)) {
                problems.add(column + ": server STRCMP and = disagree", () -> show(i) + show(j));
            }
            if (p < n - 1) {
                if (strcmp > 0) {
                    problems.add(
                            column + ": server ORDER BY and STRCMP disagree",
                            () -> show(i) + show(j));
                }
                tiedToNext[i] = strcmp == 0;
            }
            for (List<KeyTuple> keys : List.of(stored, bound)) {
                int ours = Integer.signum(order.compare(keys.get(i), keys.get(j)));
                if (ours != strcmp) {
                    problems.add(
                            column
                                    + ": "
                                    + (keys == stored ? "column" : "parameter")
                                    + " weights compare "
                                    + ours
                                    + " where the server's STRCMP is "
                                    + strcmp,
                            () -> show(i) + " vs " + show(j));
                }
            }
        }
        List<Set<Integer>> serverGroups = serverGroups(tiedToNext);
        assertCoversTiesAndBothSigns(table, column, pairs, server, tiedToNext, serverGroups);
        for (List<KeyTuple> keys : List.of(stored, bound)) {
            List<Set<Integer>> ours = sortedGroups(keys, table.hashCode());
            if (!ours.equals(serverGroups)) {
                problems.add(
                        column
                                + ": "
                                + (keys == stored ? "column" : "parameter")
                                + " weights sort into other tie groups than ORDER BY and =",
                        () -> firstDifference(ours, serverGroups));
            }
        }
    }

    /**
     * The data can catch a wrong order: values the collation holds equal though their texts differ
     * sit next to each other, and the random pairs go both ways.
     */
    private void assertCoversTiesAndBothSigns(
            String table,
            String column,
            List<int[]> pairs,
            int[][] server,
            boolean[] tiedToNext,
            List<Set<Integer>> serverGroups) {
        int n = ids.size();
        int differentTexts = 0;
        for (int i = 0; i + 1 < n; i++) {
            if (tiedToNext[i] && !texts.get(i).equals(texts.get(i + 1))) {
                differentTexts++;
            }
        }
        int below = 0;
        int above = 0;
        for (int p = n - 1; p < pairs.size(); p++) {
            below += server[p][0] < 0 ? 1 : 0;
            above += server[p][0] > 0 ? 1 : 0;
        }
        System.out.printf(
                "%s.%s: %d values in %d groups the server holds equal, %d adjacent equal pairs"
                        + " of different texts, random pairs %d below / %d above%n",
                table, column, n, serverGroups.size(), differentTexts, below, above);
        assertThat(differentTexts).as(column + ": equal values of different texts").isPositive();
        assertThat(below).as(column + ": random pairs in order").isPositive();
        assertThat(above).as(column + ": random pairs out of order").isPositive();
    }

    /** STRCMP and = of each pair (positions), for the column, in one statement. */
    private int[][] serverCompare(Connection root, String table, String column, List<int[]> pairs)
            throws SQLException {
        int[][] out = new int[pairs.size()][];
        try (Statement st = root.createStatement()) {
            st.execute("TRUNCATE TABLE `p_" + table + "`");
            for (int from = 0; from < pairs.size(); from += PAIRS_PER_INSERT) {
                StringBuilder sql = new StringBuilder("INSERT INTO `p_" + table + "` VALUES ");
                for (int p = from; p < Math.min(pairs.size(), from + PAIRS_PER_INSERT); p++) {
                    sql.append(p == from ? "(" : ", (")
                            .append(p)
                            .append(", ")
                            .append(ids.get(pairs.get(p)[0]))
                            .append(", ")
                            .append(ids.get(pairs.get(p)[1]))
                            .append(")");
                }
                st.execute(sql.toString());
            }
            String x = "x.`" + column + "`";
            String y = "y.`" + column + "`";
            try (ResultSet rs =
                    st.executeQuery(
                            "SELECT p.n, STRCMP("
                                    + x
                                    + ", "
                                    + y
                                    + "), "
                                    + x
                                    + " = "
                                    + y
                                    + " FROM `p_"
                                    + table
                                    + "` p JOIN `"
                                    + table
                                    + "` x ON x.id = p.a JOIN `"
                                    + table
                                    + "` y ON y.id = p.b")) {
                while (rs.next()) {
                    out[rs.getInt(1)] = new int[] {rs.getInt(2), rs.getInt(3)};
                }
            }
        }
        return out;
    }

    /** Ids grouped into runs of values the server holds equal, in ORDER BY order. */
    private List<Set<Integer>> serverGroups(boolean[] tiedToNext) {
        List<Set<Integer>> groups = new ArrayList<>();
        Set<Integer> group = new HashSet<>();
        for (int i = 0; i < ids.size(); i++) {
            group.add(ids.get(i));
            if (!tiedToNext[i]) {
                groups.add(group);
                group = new HashSet<>();
            }
        }
        return groups;
    }

    /** Ids in the connector's order from a shuffled start, grouped into runs it holds equal. */
    private List<Set<Integer>> sortedGroups(List<KeyTuple> keys, long seed) {
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            positions.add(i);
        }
        Collections.shuffle(positions, new Random(seed));
        positions.sort((i, j) -> order.compare(keys.get(i), keys.get(j)));
        List<Set<Integer>> groups = new ArrayList<>();
        Set<Integer> group = new HashSet<>();
        for (int k = 0; k < positions.size(); k++) {
            group.add(ids.get(positions.get(k)));
            if (k + 1 == positions.size()
                    || order.compare(keys.get(positions.get(k)), keys.get(positions.get(k + 1)))
                            != 0) {
                groups.add(group);
                group = new HashSet<>();
            }
        }
        return groups;
    }

    private static String firstDifference(List<Set<Integer>> a, List<Set<Integer>> b) {
        for (int g = 0; g < Math.min(a.size(), b.size()); g++) {
            if (!a.get(g).equals(b.get(g))) {
                return "group " + g + ": connector ids " + a.get(g) + ", server ids " + b.get(g);
            }
        }
        return "group counts " + a.size() + " vs " + b.size();
    }

    /** A test value for a failure message: id, code points and both weights. */
    private String show(int i) {
        return "[id "
                + ids.get(i)
                + " '"
                + visible(texts.get(i))
                + "' column weight "
                + HexFormat.of().formatHex(storedWeights.get(i))
                + " parameter weight "
                + HexFormat.of().formatHex(boundWeights.get(i))
                + "]";
    }

    /** Printable ASCII as it is, every other character as its code point. */
    private static String visible(String text) {
        StringBuilder sb = new StringBuilder();
        text.codePoints()
                .forEach(
                        cp -> {
                            if (cp >= 0x21 && cp <= 0x7e) {
                                sb.appendCodePoint(cp);
                            } else {
                                sb.append(String.format("<U+%04X>", cp));
                            }
                        });
        return sb.toString();
    }
}
