package io.capstan.flink.mysql.snapshot.key;

import org.apache.flink.annotation.Internal;

import java.util.ArrayList;
import java.util.List;

/**
 * SQL predicates comparing a (possibly composite) key with bound parameters, expanded column by
 * column rather than as row constructors, because MySQL's range optimizer uses the key's index for
 * the expanded form: {@code a >= ? AND (a > ? OR (a = ? AND b >= ?))}.
 */
@Internal
public final class KeyPredicates {

    /** SQL text with {@code ?} placeholders, and for each placeholder the key column it takes. */
    public static final class Predicate {
        private final String sql;
        private final int[] parameterColumns;

        Predicate(String sql, List<Integer> parameterColumns) {
            this.sql = sql;
            this.parameterColumns = parameterColumns.stream().mapToInt(Integer::intValue).toArray();
        }

        public String sql() {
            return sql;
        }

        /** Key column index (0-based, key order) of each placeholder, in placeholder order. */
        public int[] parameterColumns() {
            return parameterColumns.clone();
        }
    }

    private KeyPredicates() {}

    /** {@code key >= ?...} */
    public static Predicate atLeast(ChunkKey key) {
        return bound(key, ">", ">=");
    }

    /** {@code key > ?...} */
    public static Predicate above(ChunkKey key) {
        return bound(key, ">", ">");
    }

    /** {@code key < ?...} */
    public static Predicate below(ChunkKey key) {
        return bound(key, "<", "<");
    }

    private static Predicate bound(ChunkKey key, String strict, String last) {
        List<Integer> params = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        int n = key.arity();
        if (n > 1) {
            // a leading single-column guard lets the optimizer pick a range on the first column
            sb.append(key.column(0).quotedName())
                    .append(strict.equals(">") ? " >= " : " <= ")
                    .append(placeholder(key.column(0)));
            sb.append(" AND ");
            params.add(0);
        }
        sb.append(nested(key, 0, strict, last, params));
        return new Predicate(sb.toString(), params);
    }

    private static String nested(
            ChunkKey key, int i, String strict, String last, List<Integer> params) {
        String col = key.column(i).quotedName();
        String p = placeholder(key.column(i));
        if (i == key.arity() - 1) {
            params.add(i);
            return col + " " + last + " " + p;
        }
        params.add(i);
        params.add(i);
        String rest = nested(key, i + 1, strict, last, params);
        return "(" + col + " " + strict + " " + p + " OR (" + col + " = " + p + " AND " + rest
                + "))";
    }

    /**
     * {@code ?}, or for a collated string column {@code ?} in the column's collation: the server
     * compares in it by construction, whatever the connection's character set.
     */
    private static String placeholder(KeyColumn c) {
        return c.collation() == null ? "?" : c.collation().collated("?");
    }

    /** {@code ORDER BY a, b} (or DESC) for the key. */
    public static String orderBy(ChunkKey key, boolean descending) {
        StringBuilder sb = new StringBuilder(" ORDER BY ");
        for (int i = 0; i < key.arity(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(key.column(i).quotedName());
            if (descending) {
                sb.append(" DESC");
            }
        }
        return sb.toString();
    }
}
