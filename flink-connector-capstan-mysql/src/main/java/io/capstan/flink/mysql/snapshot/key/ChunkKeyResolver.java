package io.capstan.flink.mysql.snapshot.key;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Decides the chunk key of a table before anything is read: its primary key, or the configured
 * chunk key column, which must be the whole of a UNIQUE index and NOT NULL and is used for a table
 * without a primary key or whose primary key cannot be a chunk key, or, for a table with neither,
 * no key ({@link ChunkKey#keyless}: one unsplit chunk). Refuses, with the table, the column and the
 * remedy, a configured column that is no usable key and a key whose order the connector cannot
 * reproduce exactly (TEXT, ENUM, SET, floating point...). CHAR/VARCHAR keys in a binary PAD SPACE
 * collation are compared locally; in any other collation by the server's weights.
 */
@Internal
public final class ChunkKeyResolver {

    private static final Logger LOG = LoggerFactory.getLogger(ChunkKeyResolver.class);

    /** The SQL option that fixes a table without a usable key. */
    public static final String CHUNK_KEY_OPTION = "scan.incremental.snapshot.chunk.key-column";

    private static final String REMEDY =
            "set '"
                    + CHUNK_KEY_OPTION
                    + "' (DataStream builder: chunkKeyColumn) to a UNIQUE NOT NULL"
                    + " column of an integer, DECIMAL, date/time or BINARY/VARBINARY type, or a"
                    + " CHAR/VARCHAR in a binary collation (utf8mb4_bin, utf8mb3_bin, ascii_bin)";

    /**
     * What a mysql-cdc definition of a table without a unique key (a non-unique chunk key column)
     * writes instead: no option, no declared key; the table is then read as one unsplit chunk.
     */
    private static final String KEYLESS_REMEDY =
            ". A table without a primary key needs no chunk key column: remove '"
                    + CHUNK_KEY_OPTION
                    + "' for this table (and declare no PRIMARY KEY in Flink SQL), and the table is"
                    + " read as one unsplit chunk, exactly once (up to"
                    + " 'scan.snapshot.keyless-table.max-rows' rows); or add a UNIQUE index on the"
                    + " column";

    private ChunkKeyResolver() {}

    /**
     * @param chunkKeyColumn the configured chunk key column for this table, if any; when given it
     *     is used even if the table has a primary key.
     */
    public static ChunkKey resolve(TableKeyMetadata meta, Optional<String> chunkKeyColumn) {
        TableId table = meta.table();
        if (meta.columns().isEmpty()) {
            throw new CapstanHaltException(
                    HaltReason.INVALID_CONFIGURATION,
                    "table "
                            + table
                            + " was not found or none of its columns is visible to the"
                            + " connector user; check the table name and grant SELECT on it");
        }
        Optional<TableKeyMetadata.Index> primary =
                meta.indexes().stream().filter(TableKeyMetadata.Index::isPrimary).findFirst();
        if (chunkKeyColumn.isPresent()) {
            KeyColumn configured = configuredColumn(meta, chunkKeyColumn.get());
            if (primary.isEmpty()) {
                return new ChunkKey(table, List.of(configured), ChunkKey.Source.CHUNK_KEY_COLUMN);
            }
            return besidePrimaryKey(meta, primary.get(), configured);
        }
        if (primary.isPresent()) {
            return primaryKey(meta, primary.get());
        }
        // No primary key and no chunk key column: the table is read as one unsplit chunk (its size
        // is checked against scan.snapshot.keyless-table.max-rows before anything is read).
        return ChunkKey.keyless(table);
    }

    private static ChunkKey primaryKey(TableKeyMetadata meta, TableKeyMetadata.Index primary) {
        List<KeyColumn> cols = new ArrayList<>();
        for (String name : primary.columns) {
            cols.add(classify(meta.table(), column(meta, name).orElseThrow()));
        }
        return new ChunkKey(meta.table(), cols, ChunkKey.Source.PRIMARY_KEY);
    }

    /**
     * A chunk key column configured for a table that has a primary key. Chunks cut by another
     * column than the row's identity let an update of that column during the snapshot show one row
     * in two chunks (read before and after the update), under one primary key: downstream, keyed by
     * it, the stream's delete of the old copy then removes the row. So the primary key is used
     * whenever it can be a chunk key; the configured column only when it cannot, and then the gate
     * halts if a row does move between chunks.
     */
    private static ChunkKey besidePrimaryKey(
            TableKeyMetadata meta, TableKeyMetadata.Index primary, KeyColumn configured) {
        if (primary.columns.size() == 1
                && primary.columns.get(0).equalsIgnoreCase(configured.name())) {
            return new ChunkKey(meta.table(), List.of(configured), ChunkKey.Source.PRIMARY_KEY);
        }
        try {
            ChunkKey key = primaryKey(meta, primary);
            LOG.info(
                    "Table {}: chunked by its primary key, not by the configured '{}' column {}, so"
                            + " that an update of that column during the snapshot cannot show a row"
                            + " twice",
                    meta.table(),
                    CHUNK_KEY_OPTION,
                    configured.name());
            return key;
        } catch (CapstanHaltException primaryKeyCannotChunk) {
            if (primaryKeyCannotChunk.reason() != HaltReason.UNSUPPORTED_CHUNK_KEY) {
                throw primaryKeyCannotChunk;
            }
            return new ChunkKey(
                    meta.table(),
                    List.of(configured),
                    ChunkKey.Source.CHUNK_KEY_COLUMN_BESIDE_PRIMARY_KEY);
        }
    }

    private static KeyColumn configuredColumn(TableKeyMetadata meta, String name) {
        TableId table = meta.table();
        TableKeyMetadata.Column c =
                column(meta, name)
                        .orElseThrow(
                                () ->
                                        new CapstanHaltException(
                                                HaltReason.INVALID_CONFIGURATION,
                                                "'"
                                                        + CHUNK_KEY_OPTION
                                                        + "' names column "
                                                        + name
                                                        + ", which table "
                                                        + table
                                                        + " does not have"));
        boolean hasPrimaryKey = meta.indexes().stream().anyMatch(TableKeyMetadata.Index::isPrimary);
        if (c.nullable) {
            throw new CapstanHaltException(
                    HaltReason.INVALID_CONFIGURATION,
                    "'"
                            + CHUNK_KEY_OPTION
                            + "' names column "
                            + c.name
                            + " of table "
                            + table
                            + ", which is nullable; the chunk key column must be NOT NULL"
                            + (hasPrimaryKey ? "" : KEYLESS_REMEDY));
        }
        boolean uniqueAlone = false;
        for (TableKeyMetadata.Index index : meta.indexes()) {
            if (index.unique
                    && !index.hasPrefixPart
                    && index.columns.size() == 1
                    && index.columns.get(0).equalsIgnoreCase(c.name)) {
                uniqueAlone = true;
            }
        }
        if (!uniqueAlone) {
            throw new CapstanHaltException(
                    HaltReason.INVALID_CONFIGURATION,
                    "'"
                            + CHUNK_KEY_OPTION
                            + "' names column "
                            + c.name
                            + " of table "
                            + table
                            + ", which has no UNIQUE index of its own; the chunk key column must"
                            + " be UNIQUE (add a unique index on it alone) and NOT NULL"
                            + (hasPrimaryKey ? "" : KEYLESS_REMEDY));
        }
        return classify(table, c);
    }

    private static java.util.Optional<TableKeyMetadata.Column> column(
            TableKeyMetadata meta, String name) {
        for (TableKeyMetadata.Column c : meta.columns()) {
            if (c.name.equalsIgnoreCase(name)) { // MySQL column names are case-insensitive
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** Maps a column to its key kind, or refuses it as a chunk key. */
    static KeyColumn classify(TableId table, TableKeyMetadata.Column c) {
        int rowIndex = c.ordinalPosition - 1;
        boolean unsigned = c.columnType.contains("unsigned");
        switch (c.dataType) {
            case "tinyint":
            case "smallint":
            case "mediumint":
            case "int":
            case "integer":
            case "bigint":
                return new KeyColumn(c.name, rowIndex, KeyKind.INTEGER, unsigned, 0, 0, c.dataType);
            case "decimal":
            case "numeric":
                if (c.numericPrecision > 38) {
                    throw new CapstanHaltException(
                            HaltReason.UNSUPPORTED_CHUNK_KEY,
                            "table "
                                    + table
                                    + ": key column "
                                    + c.name
                                    + " is a DECIMAL of"
                                    + " precision above 38, which Flink cannot carry; "
                                    + REMEDY);
                }
                return new KeyColumn(
                        c.name,
                        rowIndex,
                        KeyKind.DECIMAL,
                        unsigned,
                        (int) c.numericPrecision,
                        (int) c.numericScale,
                        c.dataType);
            case "date":
                return new KeyColumn(c.name, rowIndex, KeyKind.DATE, false, 0, 0, c.dataType);
            case "time":
                return new KeyColumn(
                        c.name,
                        rowIndex,
                        KeyKind.TIME,
                        false,
                        0,
                        (int) c.datetimePrecision,
                        c.dataType);
            case "datetime":
                return new KeyColumn(
                        c.name,
                        rowIndex,
                        KeyKind.DATETIME,
                        false,
                        0,
                        (int) c.datetimePrecision,
                        c.dataType);
            case "timestamp":
                return new KeyColumn(
                        c.name,
                        rowIndex,
                        KeyKind.TIMESTAMP,
                        false,
                        0,
                        (int) c.datetimePrecision,
                        c.dataType);
            case "year":
                return new KeyColumn(c.name, rowIndex, KeyKind.YEAR, false, 0, 0, c.dataType);
            case "binary":
                return new KeyColumn(
                        c.name,
                        rowIndex,
                        KeyKind.BINARY,
                        false,
                        (int) c.octetLength,
                        0,
                        c.dataType);
            case "varbinary":
                return new KeyColumn(
                        c.name,
                        rowIndex,
                        KeyKind.VARBINARY,
                        false,
                        (int) c.octetLength,
                        0,
                        c.dataType);
            case "bit":
                return new KeyColumn(
                        c.name,
                        rowIndex,
                        KeyKind.BIT,
                        false,
                        (int) c.numericPrecision,
                        0,
                        c.dataType);
            case "char":
            case "varchar":
                if (stringKind(c.collation) == KeyKind.STRING_PAD_SPACE) {
                    return new KeyColumn(
                            c.name,
                            rowIndex,
                            KeyKind.STRING_PAD_SPACE,
                            false,
                            (int) c.octetLength,
                            0,
                            c.dataType);
                }
                if (c.weighing == null) {
                    throw new CapstanHaltException(
                            HaltReason.UNSUPPORTED_CHUNK_KEY,
                            "table "
                                    + table
                                    + ": key column "
                                    + c.name
                                    + " is a "
                                    + c.dataType
                                    + " in collation "
                                    + c.collation
                                    + ", for which the server gave no sort weights"
                                    + " (WEIGHT_STRING) or pad attribute; "
                                    + REMEDY);
                }
                return new KeyColumn(
                        c.name,
                        rowIndex,
                        KeyKind.STRING_COLLATED,
                        false,
                        (int) c.octetLength,
                        0,
                        c.dataType,
                        c.weighing);
            default:
                throw new CapstanHaltException(
                        HaltReason.UNSUPPORTED_CHUNK_KEY,
                        "table "
                                + table
                                + ": key column "
                                + c.name
                                + " has type "
                                + c.dataType
                                + ", whose order "
                                + whyUnsupported(c.dataType)
                                + "; "
                                + REMEDY);
        }
    }

    /**
     * {@link KeyKind#STRING_PAD_SPACE} for the binary collations compared locally, else null (the
     * server's weights order the key). These order by code point, which is the order of the UTF-8
     * bytes Flink holds, and ignore trailing spaces (PAD SPACE).
     */
    static KeyKind stringKind(String collation) {
        if (collation == null) {
            return null;
        }
        switch (collation) {
            case "utf8mb4_bin":
            case "utf8mb3_bin":
            case "utf8_bin":
            case "ascii_bin":
                return KeyKind.STRING_PAD_SPACE;
            default:
                return null;
        }
    }

    private static String whyUnsupported(String dataType) {
        switch (dataType.toLowerCase(Locale.ROOT)) {
            case "tinytext":
            case "text":
            case "mediumtext":
            case "longtext":
                return "depends on the column's collation (TEXT keys are not supported; CHAR and"
                        + " VARCHAR keys are, in any collation)";
            case "enum":
            case "set":
                return "follows the declared member positions, not the values"
                        + " (ENUM and SET keys are not supported)";
            case "float":
            case "double":
            case "real":
                return "is that of approximate values that do not survive a round trip through SQL"
                        + " text exactly (floating-point keys are not supported)";
            default:
                return "the connector cannot reproduce exactly";
        }
    }
}
