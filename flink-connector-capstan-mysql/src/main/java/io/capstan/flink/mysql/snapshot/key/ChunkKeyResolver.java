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

    /** What a definition of a table without a primary key writes instead of a nullable column. */
    private static final String KEYLESS_REMEDY =
            ". Name a NOT NULL column (it need not be unique: chunks are then ranges of its values),"
                    + " or remove '"
                    + CHUNK_KEY_OPTION
                    + "' for this table (and declare no PRIMARY KEY in Flink SQL): the table is then"
                    + " read as one unsplit chunk, exactly once (up to"
                    + " 'scan.snapshot.keyless-table.max-rows' rows)";

    private ChunkKeyResolver() {}

    /**
     * @param chunkKeyColumn the configured chunk key column for this table, if any; for a table
     *     with a primary key that can be a chunk key it is checked to exist and not used
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
            return configured(meta, primary, chunkKeyColumn.get());
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
     * The key of a table with a configured chunk key column.
     *
     * <p>With a primary key, the table is still chunked by it whenever it can be a chunk key:
     * chunks cut by another column than the row's identity let an update of that column during the
     * snapshot show one row in two chunks (read before and after the update) under one primary key,
     * and a consumer keyed by it loses the row at the stream's delete of the old copy. The column
     * is used only when the primary key cannot be a chunk key; it must then be UNIQUE NOT NULL, and
     * the gate halts if a row does move between chunks.
     *
     * <p>Without a primary key, a NOT NULL column is used: a UNIQUE one as the row's key, any other
     * as ranges of its values ({@link ChunkKey#valueRanges}).
     */
    private static ChunkKey configured(
            TableKeyMetadata meta, Optional<TableKeyMetadata.Index> primary, String name) {
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
        if (primary.isPresent()) {
            CapstanHaltException primaryKeyCannotChunk;
            try {
                ChunkKey key = primaryKey(meta, primary.get());
                if (!(primary.get().columns.size() == 1
                        && primary.get().columns.get(0).equalsIgnoreCase(c.name))) {
                    LOG.info(
                            "Table {}: chunked by its primary key, not by the configured '{}'"
                                    + " column {}, so that an update of that column during the"
                                    + " snapshot cannot show a row twice",
                            table,
                            CHUNK_KEY_OPTION,
                            c.name);
                }
                return key;
            } catch (CapstanHaltException e) {
                if (e.reason() != HaltReason.UNSUPPORTED_CHUNK_KEY) {
                    throw e;
                }
                primaryKeyCannotChunk = e;
            }
            if (c.nullable || !uniqueAlone(meta, c)) {
                throw new CapstanHaltException(
                        HaltReason.UNSUPPORTED_CHUNK_KEY,
                        primaryKeyCannotChunk.getMessage()
                                + ". The configured column "
                                + c.name
                                + " cannot chunk it either: beside a primary key the chunk key"
                                + " column must be NOT NULL with a UNIQUE index of its own");
            }
            return new ChunkKey(
                    table,
                    List.of(classify(table, c)),
                    ChunkKey.Source.CHUNK_KEY_COLUMN_BESIDE_PRIMARY_KEY);
        }
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
                            + KEYLESS_REMEDY);
        }
        return new ChunkKey(
                table,
                List.of(classify(table, c)),
                uniqueAlone(meta, c)
                        ? ChunkKey.Source.CHUNK_KEY_COLUMN
                        : ChunkKey.Source.VALUE_RANGE_COLUMN);
    }

    /** Whether a UNIQUE index covers exactly this column (whole values, no prefix). */
    private static boolean uniqueAlone(TableKeyMetadata meta, TableKeyMetadata.Column c) {
        for (TableKeyMetadata.Index index : meta.indexes()) {
            if (index.unique
                    && !index.hasPrefixPart
                    && index.columns.size() == 1
                    && index.columns.get(0).equalsIgnoreCase(c.name)) {
                return true;
            }
        }
        return false;
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
