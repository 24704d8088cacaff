package io.capstan.flink.mysql.table;

import org.apache.flink.table.api.ValidationException;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Options of Flink CDC's {@code mysql-cdc} that {@code capstan-mysql} does not take, each with why
 * and what to do instead. Checked before the generic unknown-option check so that a migrating user
 * gets a remedy rather than only a list of valid keys.
 */
final class UnsupportedOptionHints {

    private static final Map<String, String> EXACT = new LinkedHashMap<>();
    private static final Map<String, String> PREFIXES = new LinkedHashMap<>();

    static {
        String exact =
                "a GTID set position is exact, so no events or rows need skipping; remove it.";
        EXACT.put("scan.startup.specific-offset.skip-events", exact);
        EXACT.put("scan.startup.specific-offset.skip-rows", exact);
        EXACT.put(
                "connection.pool.size",
                "capstan opens its connections per task as needed; remove it.");
    }

    private UnsupportedOptionHints() {}

    /** Fails on the first option of mysql-cdc that this connector does not take. */
    static void check(Set<String> keys) {
        for (String key : keys) {
            String hint = EXACT.get(key);
            if (hint == null) {
                for (Map.Entry<String, String> p : PREFIXES.entrySet()) {
                    if (key.startsWith(p.getKey())) {
                        hint = p.getValue();
                    }
                }
            }
            if (hint != null) {
                throw new ValidationException(
                        "Option '"
                                + key
                                + "' of mysql-cdc is not supported by '"
                                + CapstanMySqlTableFactory.IDENTIFIER
                                + "': "
                                + hint);
            }
        }
    }
}
