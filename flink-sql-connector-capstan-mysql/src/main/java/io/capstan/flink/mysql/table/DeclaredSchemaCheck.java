package io.capstan.flink.mysql.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Checks at planning time that the table declared in {@code CREATE TABLE} fits the MySQL tables it
 * reads: every declared physical column exists (by name), its declared type can hold the column's
 * values ({@link DeclaredTypeRule}), the declared PRIMARY KEY is the tables' key (or, for tables
 * without one, the chunk key column), and all tables matched by the patterns have the same shape.
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
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("no tables to check against");
        }
        MySqlTableShape first = tables.get(0);
        for (MySqlTableShape other : tables.subList(1, tables.size())) {
            sameShape(first, other);
        }

        List<String> problems = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (Column column : declared.getColumns()) {
            if (!column.isPhysical()) {
                continue;
            }
            Optional<MySqlTableShape.Column> mysql = first.column(column.getName());
            if (mysql.isEmpty()) {
                unknown.add(column.getName());
                continue;
            }
            LogicalType declaredType = column.getDataType().getLogicalType();
            MySqlTableShape.Column m = mysql.get();
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
        if (!unknown.isEmpty()) {
            problems.add(
                    0,
                    "column(s) "
                            + quoted(unknown)
                            + " do not exist in the MySQL table; its columns are "
                            + quoted(
                                    first.columns().stream()
                                            .map(MySqlTableShape.Column::name)
                                            .collect(Collectors.toList()))
                            + ".");
        }
        chunkKeyColumn.ifPresent(
                key -> {
                    if (first.column(key).isEmpty()) {
                        problems.add(
                                "option 'scan.incremental.snapshot.chunk.key-column' names '"
                                        + key
                                        + "', which is not a column of the MySQL table.");
                    }
                });
        primaryKeyProblem(declared, first, chunkKeyColumn).ifPresent(problems::add);

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
        if (chunkKeyColumn.isPresent()
                && declaredKey.equals(lowerSet(List.of(chunkKeyColumn.get())))) {
            return Optional.empty();
        }
        return Optional.of(
                "the declared PRIMARY KEY "
                        + quoted(pk.get().getColumns())
                        + " is not a key of the MySQL table, which has no primary key; declare no"
                        + " primary key, or declare the column named by"
                        + " 'scan.incremental.snapshot.chunk.key-column' (a column whose values are"
                        + " unique).");
    }

    /** Tables read as one must have the same columns (by name), types and key. */
    private static void sameShape(MySqlTableShape first, MySqlTableShape other) {
        List<String> differences = new ArrayList<>();
        for (MySqlTableShape.Column c : first.columns()) {
            Optional<MySqlTableShape.Column> o = other.column(c.name());
            if (o.isEmpty()) {
                differences.add("column '" + c.name() + "' is missing");
            } else if (!o.get().flinkType().equals(c.flinkType())) {
                differences.add(
                        "column '"
                                + c.name()
                                + "' is "
                                + o.get().mysqlType() // the type text says NOT NULL itself
                                + " instead of "
                                + c.mysqlType());
            }
        }
        for (MySqlTableShape.Column c : other.columns()) {
            if (first.column(c.name()).isEmpty()) {
                differences.add("it has an extra column '" + c.name() + "'");
            }
        }
        if (!lowerSet(first.keyColumns()).equals(lowerSet(other.keyColumns()))) {
            differences.add(
                    "its primary key is "
                            + quoted(other.keyColumns())
                            + " instead of "
                            + quoted(first.keyColumns()));
        }
        if (!differences.isEmpty()) {
            throw new ValidationException(
                    "The tables matched by 'database-name' and 'table-name' must have the same"
                            + " shape to be read as one table, but "
                            + other.tableId().quoted()
                            + " differs from "
                            + first.tableId().quoted()
                            + ": "
                            + String.join("; ", differences)
                            + ". Narrow the patterns or align the tables.");
        }
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
