package io.capstan.flink.mysql.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A changelog applied by key, checking as it goes that each change fits what came before: an insert
 * of a key not held, an update or delete whose before image is the held row. A duplicate or a lost
 * change therefore shows as a named error, not only as a wrong end state. Not thread-safe.
 */
public final class ChangelogView {

    private final Map<String, Map<Long, String>> tables = new TreeMap<>();
    private final List<String> errors = new ArrayList<>();
    private int changes;

    /**
     * Applies one record.
     *
     * @param kind {@code +I}, {@code -U}, {@code +U} or {@code -D} (a {@code -U} must be followed
     *     by its {@code +U})
     * @param value the row's compared columns, as one string
     */
    public void apply(String table, String kind, long id, String value) {
        Map<Long, String> rows = tables.computeIfAbsent(table, t -> new TreeMap<>());
        changes++;
        switch (kind) {
            case "+I":
            case "+U":
                String before = rows.put(id, value);
                if (kind.equals("+I") && before != null) {
                    errors.add(table + ": insert of held key " + id);
                }
                break;
            case "-U":
            case "-D":
                String held = rows.remove(id);
                if (held == null) {
                    errors.add(table + ": " + kind + " of missing key " + id);
                } else if (!held.equals(value)) {
                    errors.add(
                            table
                                    + ": "
                                    + kind
                                    + " of key "
                                    + id
                                    + " is "
                                    + value
                                    + ", held "
                                    + held);
                }
                break;
            default:
                throw new IllegalArgumentException("kind " + kind);
        }
    }

    /** The rows held for {@code table}: id to value. */
    public Map<Long, String> rows(String table) {
        return tables.getOrDefault(table, Map.of());
    }

    public List<String> errors() {
        return errors;
    }

    public int changes() {
        return changes;
    }
}
