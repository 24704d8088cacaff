package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.convert.RowConverter;
import io.capstan.flink.mysql.convert.SpatialValueForm;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyColumn;

import org.apache.flink.annotation.Internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * What to read from one table's chunks: its chunk key, the columns to select (the schema's columns,
 * in the order the decoder expects them) and the decoder. Build one per table and schema.
 */
@Internal
public final class TableReadSpec {
    private final ChunkKey key;
    private final List<String> columns;
    private final JdbcRowDecoder decoder;
    private final List<String> selectItems;
    private final String selectPrefix;
    private final TableSchema schema;
    private final OptionalLong fingerprint;

    private TableReadSpec(
            ChunkKey key,
            List<String> columns,
            List<String> selectItems,
            JdbcRowDecoder decoder,
            TableSchema schema,
            OptionalLong fingerprint) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.fingerprint = fingerprint;
        this.key = Objects.requireNonNull(key, "key");
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("no columns to read from table " + key.table());
        }
        this.columns = List.copyOf(columns);
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        this.selectItems = List.copyOf(selectItems);
        this.selectPrefix =
                "SELECT " + String.join(", ", selectItems) + " FROM " + key.table().quoted();
    }

    /**
     * Reads all of the schema's columns and converts them with one {@link RowConverter} built here,
     * so snapshot rows hold exactly the values the binlog path produces for the same row. Checks
     * that the key's field positions are the schema's (they both come from information_schema).
     */
    public static TableReadSpec forSchema(ChunkKey key, TableSchema schema) {
        return forSchema(key, schema, Optional.empty());
    }

    /**
     * Like {@link #forSchema(ChunkKey, TableSchema)}, but reads only the given columns
     * (case-insensitive; names the table lacks are ignored) and the chunk key columns; the rows
     * still have every schema column, the unread ones null. Empty: every column.
     */
    public static TableReadSpec forSchema(
            ChunkKey key, TableSchema schema, Optional<Set<String>> onlyColumns) {
        return forSchema(key, schema, onlyColumns, SpatialValueForm.WKB);
    }

    /**
     * Like {@link #forSchema(ChunkKey, TableSchema, Optional)}, with spatial values in {@code
     * spatialForm}.
     */
    public static TableReadSpec forSchema(
            ChunkKey key,
            TableSchema schema,
            Optional<Set<String>> onlyColumns,
            SpatialValueForm spatialForm) {
        if (!schema.tableId().equals(key.table())) {
            throw new IllegalArgumentException(
                    "schema of " + schema.tableId() + " given for table " + key.table());
        }
        for (KeyColumn c : key.columns()) {
            if (c.rowIndex() >= schema.columnCount()
                    || !schema.column(c.rowIndex()).name().equalsIgnoreCase(c.name())) {
                throw new IllegalStateException(
                        "table "
                                + key.table()
                                + ": key column "
                                + c.name()
                                + " is not at position "
                                + c.rowIndex()
                                + " of the schema; the table changed, restart");
            }
        }
        RowConverter converter = RowConverter.of(schema, spatialForm);
        if (onlyColumns.isEmpty()) {
            List<String> names = new ArrayList<>();
            List<String> items = new ArrayList<>();
            for (int i = 0; i < schema.columnCount(); i++) {
                names.add(schema.column(i).name());
                items.add(converter.selectExpression(i));
            }
            return new TableReadSpec(
                    key, names, items, converter::fromJdbc, schema, OptionalLong.empty());
        }
        Set<String> wanted = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        wanted.addAll(onlyColumns.get());
        List<String> names = new ArrayList<>();
        List<String> items = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < schema.columnCount(); i++) {
            String name = schema.column(i).name();
            if (wanted.contains(name) || isKeyColumn(key, i)) {
                names.add(name);
                items.add(converter.selectExpression(i));
                positions.add(i);
            }
        }
        int[] read = positions.stream().mapToInt(Integer::intValue).toArray();
        return new TableReadSpec(
                key,
                names,
                items,
                rs -> converter.fromJdbc(rs, read),
                schema,
                OptionalLong.empty());
    }

    private static boolean isKeyColumn(ChunkKey key, int rowIndex) {
        for (KeyColumn c : key.columns()) {
            if (c.rowIndex() == rowIndex) {
                return true;
            }
        }
        return false;
    }

    public ChunkKey key() {
        return key;
    }

    public List<String> columns() {
        return columns;
    }

    public JdbcRowDecoder decoder() {
        return decoder;
    }

    /**
     * The schema the rows are converted with; the reader checks after each chunk that the table
     * still has it.
     */
    public TableSchema schema() {
        return schema;
    }

    /**
     * This spec, whose chunks are read only while the table has {@code fingerprint} ({@link
     * TableFingerprints#of}: the schema, the columns' collations and the chunk key's index), taken
     * from the table as the spec was built.
     */
    public TableReadSpec fingerprinted(long fingerprint) {
        return new TableReadSpec(
                key, columns, selectItems, decoder, schema, OptionalLong.of(fingerprint));
    }

    /**
     * The table's {@link TableFingerprints} fingerprint the reader checks with each chunk whose
     * table definition changed; empty for a spec built only to check that the schema converts.
     */
    public OptionalLong fingerprint() {
        return fingerprint;
    }

    /**
     * {@code SELECT `a`, `b` FROM `db`.`t`}, each item as {@link RowConverter#selectExpression}
     * reads its column.
     */
    String selectPrefix() {
        return selectPrefix;
    }
}
