package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code debezium.*} keys of a mysql-cdc table that change how values are encoded, which
 * capstan honours with the declared table in hand (the other keys: {@link
 * DebeziumPassThroughOptions}):
 *
 * <ul>
 *   <li>{@code debezium.binary.handling.mode}: {@code bytes} (what capstan does), {@code base64} or
 *       {@code hex}: a binary column declared {@code STRING} is then the text Debezium makes of its
 *       bytes ({@link BinaryTextEncoding}); declared as bytes it is refused (mysql-cdc fails on it
 *       at runtime);
 *   <li>{@code debezium.enable.time.adjuster}: Debezium's rewriting of the stored years 0 to 99 of
 *       {@code DATE}, {@code DATETIME} and {@code YEAR} values (to 1970..2069). MySQL itself turns
 *       two-digit years into four-digit ones when they are written, so a stored year below 100 is
 *       what was asked for, and capstan reads it as stored: {@code false} is accepted, {@code true}
 *       only where no declared column reads such a column (no value can change).
 * </ul>
 */
final class DebeziumValueOptions {

    static final String BINARY_HANDLING_MODE = "debezium.binary.handling.mode";
    static final String ENABLE_TIME_ADJUSTER = "debezium.enable.time.adjuster";

    /** The keys decided here, which {@link DebeziumPassThroughOptions} leaves alone. */
    static final Set<String> KEYS = Set.of(BINARY_HANDLING_MODE, ENABLE_TIME_ADJUSTER);

    private DebeziumValueOptions() {}

    /** The encoding of binary columns the table's options ask for. */
    static BinaryTextEncoding binaryEncoding(Map<String, String> raw) {
        String mode = raw.get(BINARY_HANDLING_MODE);
        if (mode == null) {
            return BinaryTextEncoding.BYTES;
        }
        return BinaryTextEncoding.ofMode(mode)
                .orElseThrow(
                        () ->
                                new ValidationException(
                                        "Option '"
                                                + BINARY_HANDLING_MODE
                                                + "' = '"
                                                + mode.trim()
                                                + "' is not supported: 'bytes' (the default),"
                                                + " 'base64' or 'hex'."));
    }

    /**
     * Refuses the values that would change what capstan reads, naming the columns and what to write
     * instead.
     *
     * @param tables the matched MySQL tables
     */
    static void check(
            Map<String, String> raw, ResolvedSchema declared, List<MySqlTableShape> tables) {
        BinaryTextEncoding binary = binaryEncoding(raw);
        String adjuster = raw.get(ENABLE_TIME_ADJUSTER);
        boolean adjust = false;
        if (adjuster != null) {
            String v = adjuster.trim().toLowerCase(Locale.ROOT);
            if (!v.equals("true") && !v.equals("false")) {
                throw new ValidationException(
                        "Option '" + ENABLE_TIME_ADJUSTER + "' must be 'true' or 'false'.");
            }
            adjust = v.equals("true");
        }
        List<String> binaryAsBytes = new ArrayList<>();
        List<String> adjustable = new ArrayList<>();
        for (Column c : declared.getColumns()) {
            if (!c.isPhysical()) {
                continue;
            }
            for (MySqlTableShape table : tables) {
                ColumnSchema mysql =
                        table.column(c.getName())
                                .map(MySqlTableShape.Column::mysqlColumn)
                                .orElse(null);
                if (mysql == null) {
                    continue;
                }
                if (binary != BinaryTextEncoding.BYTES
                        && mysql.type().isBinaryString()
                        && !isString(c.getDataType().getLogicalType())
                        && !binaryAsBytes.contains(c.getName())) {
                    binaryAsBytes.add(c.getName());
                }
                if (adjust && hasYear(mysql.type()) && !adjustable.contains(c.getName())) {
                    adjustable.add(c.getName());
                }
            }
        }
        if (!binaryAsBytes.isEmpty()) {
            throw new ValidationException(
                    "Option '"
                            + BINARY_HANDLING_MODE
                            + "' = '"
                            + binary.mode()
                            + "' reads binary columns as text, but "
                            + quoted(binaryAsBytes)
                            + " are not declared STRING: declare them STRING (the "
                            + binary.mode()
                            + " text of the bytes), or remove the option to read bytes.");
        }
        if (!adjustable.isEmpty()) {
            throw new ValidationException(
                    "Option '"
                            + ENABLE_TIME_ADJUSTER
                            + "' = 'true' would rewrite stored years 0 to 99 of "
                            + quoted(adjustable)
                            + " (DATE, DATETIME or YEAR columns); capstan reads the year MySQL"
                            + " stored (MySQL already turns a two-digit year into four digits when"
                            + " it is written): set the option to 'false' or remove it.");
        }
    }

    /** Whether {@code declared} is {@code STRING}, the only type that holds every binary text. */
    static boolean isString(LogicalType declared) {
        return declared.getTypeRoot() == LogicalTypeRoot.VARCHAR
                && LogicalTypeChecks.getLength(declared) == VarCharType.MAX_LENGTH;
    }

    private static boolean hasYear(MySqlType type) {
        return type == MySqlType.DATE || type == MySqlType.DATETIME || type == MySqlType.YEAR;
    }

    private static String quoted(List<String> names) {
        return String.join(", ", names.stream().map(n -> "'" + n + "'").toList());
    }
}
