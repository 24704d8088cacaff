package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Checks at planning time that the table declared in {@code CREATE TABLE} fits each MySQL table it
 * reads: every declared physical column exists (by name) in some table, its declared type can hold
 * the column's values in every table that has it ({@link DeclaredTypeRule}), a table that lacks it
 * (a shard of another shape) only where it is declared nullable (its rows hold NULL there), and the
 * declared PRIMARY KEY is each table's key (or, for tables without one, the chunk key column).
 * Every problem is reported in one message naming table, column and types, never a value. Pure
 * logic.
 */
@Internal
public final class DeclaredSchemaCheck {

    private DeclaredSchemaCheck() {}

    public static void check(
            ResolvedSchema declared,
            List<MySqlTableShape> tables,
            Optional<String> chunkKeyColumn) {
        check(declared, tables, chunkKeyColumn, BinaryTextEncoding.BYTES);
    }

    /**
     * As {@link #check(ResolvedSchema, List, Optional)}, binary columns read as {@code binary}
     * ({@code debezium.binary.handling.mode}): as text, they are declared {@code STRING}.
     */
    static void check(
            ResolvedSchema declared,
            List<MySqlTableShape> tables,
            Optional<String> chunkKeyColumn,
            BinaryTextEncoding binary) {
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("no tables to check against");
        }
        MySqlTableShape first = tables.get(0);
        List<String> unknown = new ArrayList<>();
        for (Column column : declared.getColumns()) {
            if (column.isPhysical()
                    && tables.stream().allMatch(t -> t.column(column.getName()).isEmpty())) {
                unknown.add(column.getName());
            }
        }
        List<String> problems = new ArrayList<>();
        if (!unknown.isEmpty()) {
            problems.add(
                    "column(s) "
                            + quoted(unknown)
                            + (tables.size() > 1
                                    ? " do not exist in any matched MySQL table; the columns of "
                                            + first.tableId().quoted()
                                            + " are "
                                    : " do not exist in the MySQL table; its columns are ")
                            + quoted(
                                    first.columns().stream()
                                            .map(MySqlTableShape.Column::name)
                                            .collect(Collectors.toList()))
                            + ".");
        }
        // Each table on its own: shards may differ, each must fit the declaration.
        for (MySqlTableShape table : tables) {
            List<String> own = tableProblems(declared, table, chunkKeyColumn, unknown, binary);
            if (!own.isEmpty()) {
                problems.add(
                        (tables.size() > 1 ? "in " + table.tableId().quoted() + ": " : "")
                                + String.join("\n  ", own));
            }
        }
        if (!problems.isEmpty()) {
            throw new ValidationException(
                    "The declared table does not fit MySQL table "
                            + first.tableId().quoted()
                            + (tables.size() > 1
                                    ? " (and the " + (tables.size() - 1) + " other matched tables)"
                                    : "")
                            + ":\n  "
                            + String.join("\n  ", problems));
        }
    }

    /**
     * The declared physical columns each table lacks (by declared name), for the tables that lack
     * one: a declared nullable column a shard lacks is NULL in its rows.
     */
    public static Map<TableId, Set<String>> absentColumns(
            ResolvedSchema declared, List<MySqlTableShape> tables) {
        Map<TableId, Set<String>> absent = new TreeMap<>();
        for (MySqlTableShape table : tables) {
            for (Column column : declared.getColumns()) {
                if (column.isPhysical() && table.column(column.getName()).isEmpty()) {
                    absent.computeIfAbsent(table.tableId(), t -> new TreeSet<>())
                            .add(column.getName());
                }
            }
        }
        return absent;
    }

    /** What keeps one table from fitting the declaration (the unknown columns aside). */
    private static List<String> tableProblems(
            ResolvedSchema declared,
            MySqlTableShape table,
            Optional<String> chunkKeyColumn,
            List<String> unknown,
            BinaryTextEncoding binary) {
        List<String> problems = new ArrayList<>();
        for (Column column : declared.getColumns()) {
            if (!column.isPhysical() || unknown.contains(column.getName())) {
                continue;
            }
            LogicalType declaredType = column.getDataType().getLogicalType();
            Optional<MySqlTableShape.Column> mysql = table.column(column.getName());
            if (mysql.isEmpty()) {
                if (!declaredType.isNullable()) {
                    problems.add(
                            "column '"
                                    + column.getName()
                                    + "' is declared NOT NULL, but "
                                    + table.tableId().quoted()
                                    + " has no such column (its rows would hold NULL there);"
                                    + " declare the column without NOT NULL (and outside the"
                                    + " PRIMARY KEY), or narrow the patterns.");
                }
                continue;
            }
            MySqlTableShape.Column m = mysql.get();
            if (binary != BinaryTextEncoding.BYTES
                    && m.mysqlColumn() != null
                    && m.mysqlColumn().type().isBinaryString()
                    && DebeziumValueOptions.isString(declaredType)) {
                continue; // the text of the bytes (DebeziumValueOptions)
            }
            DeclaredTypeRule.incompatibility(m.mysqlColumn(), m.flinkType(), declaredType)
                    .or(
                            () ->
                                    DeclaredTypeRule.nullabilityProblem(
                                            m.flinkType().isNullable(), declaredType))
                    .ifPresent(
                            reason ->
                                    problems.add(
                                            "column '"
                                                    + column.getName()
                                                    + "': MySQL type "
                                                    + m.mysqlType()
                                                    + " is read as "
                                                    + m.flinkType().asSummaryString()
                                                    + ", declared "
                                                    + declaredType.asSummaryString()
                                                    + ": "
                                                    + reason
                                                    + "."));
        }
        chunkKeyColumn.ifPresent(
                key -> {
                    if (table.column(key).isEmpty()) {
                        problems.add(
                                "option 'scan.incremental.snapshot.chunk.key-column' names '"
                                        + key
                                        + "', which is not a column of the MySQL table.");
                    }
                });
        primaryKeyProblem(declared, table, chunkKeyColumn).ifPresent(problems::add);
        return problems;
    }

    private static Optional<String> primaryKeyProblem(
            ResolvedSchema declared, MySqlTableShape table, Optional<String> chunkKeyColumn) {
        Optional<UniqueConstraint> pk = declared.getPrimaryKey();
        if (pk.isEmpty()) {
            return Optional.empty();
        }
        Set<String> declaredKey = lowerSet(pk.get().getColumns());
        Set<String> tableKey = lowerSet(table.keyColumns());
        if (!tableKey.isEmpty()) {
            if (declaredKey.equals(tableKey)) {
                return Optional.empty();
            }
            return Optional.of(
                    "the declared PRIMARY KEY "
                            + quoted(pk.get().getColumns())
                            + " differs from the MySQL primary key "
                            + quoted(table.keyColumns())
                            + "; declare PRIMARY KEY ("
                            + String.join(", ", table.keyColumns())
                            + ") NOT ENFORCED, or no primary key.");
        }
        boolean declaresChunkKey =
                chunkKeyColumn.isPresent()
                        && declaredKey.equals(lowerSet(List.of(chunkKeyColumn.get())));
        if (declaresChunkKey && table.chunkKeyIdentifiesRows()) {
            return Optional.empty();
        }
        String why =
                declaresChunkKey
                        ? ": the chunk key column has no UNIQUE index of its own, so the table is"
                                + " chunked by ranges of its values and its changes retract and add"
                                + " whole rows; declare no primary key, or add a UNIQUE index on the"
                                + " column."
                        : ", which has no primary key; declare no primary key (the table is then"
                                + " read as one unsplit chunk and its changes retract and add whole"
                                + " rows, up to 'scan.snapshot.keyless-table.max-rows' rows), or set"
                                + " 'scan.incremental.snapshot.chunk.key-column' to a UNIQUE NOT"
                                + " NULL column and declare that column as the PRIMARY KEY.";
        return Optional.of(
                "the declared PRIMARY KEY "
                        + quoted(pk.get().getColumns())
                        + " is not a key of the MySQL table"
                        + why);
    }

    private static Set<String> lowerSet(List<String> names) {
        return names.stream()
                .map(n -> n.toLowerCase(Locale.ROOT))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static String quoted(List<String> names) {
        return names.stream().map(n -> "'" + n + "'").collect(Collectors.joining(", "));
    }
}
