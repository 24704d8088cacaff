package io.capstan.flink.mysql.table;

import org.apache.flink.table.api.ValidationException;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The {@code debezium.*} keys a {@code mysql-cdc} table passes to Debezium, decided one by one:
 * mapped to the capstan option with the same effect, ignored with one WARN where no value can
 * change what the table reads, or refused naming the key and what to write instead where it would
 * change values. A key not listed is refused: capstan does not run Debezium, and an unknown setting
 * might have changed values. The table of decisions is in docs/sql.md.
 */
final class DebeziumPassThroughOptions {

    static final String PREFIX = "debezium.";

    /**
     * One key's decision.
     *
     * @param harmless lower-case values that read the same as capstan does (ignored with a WARN);
     *     null when every value is harmless
     * @param why the WARN's reason, or the refusal's remedy
     * @param refuseAlways refused whatever the value
     */
    private record Rule(Set<String> harmless, String why, boolean refuseAlways) {
        static Rule ignored(String why) {
            return new Rule(null, why, false);
        }

        static Rule harmlessOnly(Set<String> values, String remedy) {
            return new Rule(values, remedy, false);
        }

        static Rule refused(String remedy) {
            return new Rule(Set.of(), remedy, true);
        }
    }

    /** The key, its capstan option, and how a value is rewritten for it. */
    private record Mapping(String option, UnaryOperator<String> value) {}

    /** Debezium's milliseconds as a Flink duration. */
    private static final UnaryOperator<String> MILLIS = v -> v.trim() + " ms";

    private static final Map<String, Rule> RULES = new LinkedHashMap<>();
    private static final Map<String, Mapping> MAPPINGS = new LinkedHashMap<>();

    static {
        MAPPINGS.put(
                "debezium.database.ssl.mode",
                // Debezium's verify_ca / verify_identity are capstan's verify-ca / verify-identity
                new Mapping("ssl.mode", v -> v.trim().toLowerCase(Locale.ROOT).replace('_', '-')));
        MAPPINGS.put("debezium.heartbeat.interval.ms", new Mapping("heartbeat.interval", MILLIS));
        MAPPINGS.put("debezium.connect.timeout.ms", new Mapping("connect.timeout", MILLIS));

        RULES.put(
                "debezium.snapshot.mode",
                Rule.harmlessOnly(
                        Set.of("initial"),
                        "the start mode decides whether there is a snapshot: use"
                                + " 'scan.startup.mode' (e.g. 'latest-offset' for no snapshot)."));
        RULES.put(
                "debezium.snapshot.locking.mode",
                Rule.ignored(
                        "capstan takes no global read lock; each chunk is read under a brief"
                                + " LOCK TABLES ... READ (see 'scan.snapshot.lock-wait.*')."));
        RULES.put(
                "debezium.skipped.operations",
                Rule.harmlessOnly(
                        Set.of("none"),
                        "capstan emits every change; filter in the query instead, e.g. on the"
                                + " 'row_kind' metadata column, and remove the option."));
        RULES.put(
                "debezium.decimal.handling.mode",
                Rule.harmlessOnly(
                        Set.of("precise"),
                        "capstan reads DECIMAL exactly; CAST the column in the query to the type"
                                + " you want, and remove the option."));
        RULES.put(
                "debezium.bigint.unsigned.handling.mode",
                Rule.harmlessOnly(
                        Set.of("precise"),
                        "capstan reads BIGINT UNSIGNED exactly as DECIMAL(20, 0); declare the"
                                + " column so, and remove the option."));
        RULES.put(
                "debezium.time.precision.mode",
                Rule.harmlessOnly(
                        Set.of("adaptive_time_microseconds", "adaptive"),
                        "capstan keeps the microseconds MySQL stores; declare TIMESTAMP(3) or"
                                + " TIME(3) for milliseconds, and remove the option."));
        RULES.put(
                "debezium.event.processing.failure.handling.mode",
                Rule.harmlessOnly(
                        Set.of("fail"),
                        "capstan never skips an event it cannot process: it halts naming the"
                                + " table and reason (docs/halts.md); remove the option."));
        RULES.put(
                "debezium.inconsistent.schema.handling.mode",
                Rule.harmlessOnly(
                        Set.of("fail"),
                        "capstan never skips rows of a table whose schema it does not know: it"
                                + " halts (docs/halts.md); remove the option."));
        RULES.put(
                "debezium.include.schema.changes",
                Rule.ignored("a Flink SQL table emits no schema change records."));
        RULES.put(
                "debezium.tombstones.on.delete",
                Rule.ignored("a Flink SQL table has no tombstones: a delete is a -D row."));
        RULES.put(
                "debezium.snapshot.fetch.size",
                Rule.ignored("use 'scan.snapshot.fetch.size' for the snapshot's fetch size."));
        RULES.put(
                "debezium.min.row.count.to.stream.results",
                Rule.ignored("capstan streams chunk rows ('scan.snapshot.fetch.size')."));
        RULES.put(
                "debezium.max.queue.size",
                Rule.ignored("capstan's buffers are not sized by Debezium's queue."));
        RULES.put(
                "debezium.max.batch.size",
                Rule.ignored("capstan's buffers are not sized by Debezium's batches."));
        RULES.put("debezium.poll.interval.ms", Rule.ignored("capstan does not poll a queue."));
        RULES.put(
                "debezium.connect.keep.alive",
                Rule.ignored("the binlog connection is always kept alive and reconnected."));
        RULES.put(
                "debezium.connect.keep.alive.interval.ms",
                Rule.ignored("see 'binlog.reconnect.backoff' and 'binlog.reconnect.budget'."));
        for (String k :
                new String[] {
                    "debezium.database.ssl.keystore",
                    "debezium.database.ssl.keystore.password",
                    "debezium.database.ssl.truststore",
                    "debezium.database.ssl.truststore.password"
                }) {
            RULES.put(
                    k,
                    Rule.refused(
                            "capstan verifies the server with the JVM's trust store"
                                    + " (javax.net.ssl.trustStore in env.java.opts) for both its"
                                    + " JDBC and binlog connections; set 'ssl.mode' and remove the"
                                    + " option."));
        }
        String zone =
                "use 'server-time-zone' for how MySQL TIMESTAMP/DATETIME values read; remove the"
                        + " option.";
        RULES.put("debezium.database.serverTimezone", Rule.refused(zone));
        RULES.put("debezium.database.connectionTimeZone", Rule.refused(zone));
        RULES.put(
                "debezium.converters",
                Rule.refused(
                        "custom Debezium converters do not run in capstan; declare the column's"
                                + " Flink type and convert in the query."));
        RULES.put(
                "debezium.database.initial.statements",
                Rule.refused(
                        "session statements could change the values read; use"
                                + " 'jdbc.properties.*' for driver settings."));
        String selection =
                "tables are chosen with 'database-name' and 'table-name', columns by the table's"
                        + " declared columns.";
        for (String k :
                new String[] {
                    "debezium.database.include.list",
                    "debezium.database.exclude.list",
                    "debezium.table.include.list",
                    "debezium.table.exclude.list",
                    "debezium.column.include.list",
                    "debezium.column.exclude.list",
                    "debezium.gtid.source.includes",
                    "debezium.gtid.source.excludes"
                }) {
            RULES.put(k, Rule.refused(selection));
        }
    }

    private DebeziumPassThroughOptions() {}

    /**
     * Checks every {@code debezium.*} key of {@code raw}.
     *
     * @param warnings one line per ignored key
     * @return the capstan options the mapped keys set (option key to value)
     * @throws ValidationException for a refused key or value, or a mapped key whose option is also
     *     set to something else
     */
    static Map<String, String> check(Map<String, String> raw, Consumer<String> warnings) {
        Map<String, String> mapped = new TreeMap<>();
        for (Map.Entry<String, String> e : new TreeMap<>(raw).entrySet()) {
            String key = e.getKey();
            if (!key.startsWith(PREFIX)) {
                continue;
            }
            if (DebeziumValueOptions.KEYS.contains(key)) {
                continue; // decided with the declared table: DebeziumValueOptions
            }
            String value = e.getValue() == null ? "" : e.getValue();
            Mapping m = MAPPINGS.get(key);
            if (m != null) {
                String target = m.value().apply(value);
                String own = raw.get(m.option());
                if (own != null && !own.trim().equalsIgnoreCase(target)) {
                    throw refusal(key, "it contradicts '" + m.option() + "'; remove it.");
                }
                mapped.put(m.option(), target);
                continue;
            }
            Rule rule = RULES.get(key);
            if (rule == null) {
                throw refusal(
                        key,
                        "capstan does not use Debezium, and this setting might change the values"
                                + " read. JDBC driver settings go in 'jdbc.properties.*', TLS in"
                                + " 'ssl.mode'; see docs/sql.md for the debezium.* keys capstan"
                                + " maps or ignores.");
            }
            String normalized = value.trim().toLowerCase(Locale.ROOT);
            if (rule.refuseAlways()) {
                throw refusal(key, rule.why());
            }
            if (rule.harmless() == null) {
                warnings.accept(
                        "Option '" + key + "' of mysql-cdc is ignored by capstan: " + rule.why());
            } else if (rule.harmless().contains(normalized)) {
                warnings.accept(
                        "Option '"
                                + key
                                + "' = '"
                                + normalized
                                + "' of mysql-cdc is ignored by capstan: it is what capstan"
                                + " does.");
            } else {
                throw new ValidationException(
                        "Option '"
                                + key
                                + "' = '"
                                + normalized
                                + "' of mysql-cdc is not supported by '"
                                + CapstanMySqlTableFactory.IDENTIFIER
                                + "': "
                                + rule.why());
            }
        }
        return mapped;
    }

    private static ValidationException refusal(String key, String remedy) {
        return new ValidationException(
                "Option '"
                        + key
                        + "' of mysql-cdc is not supported by '"
                        + CapstanMySqlTableFactory.IDENTIFIER
                        + "': "
                        + remedy);
    }
}
