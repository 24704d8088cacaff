package io.capstan.flink.mysql.schema.read;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlCharsets;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.annotation.Internal;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;

import java.util.Arrays;
import java.util.BitSet;

/**
 * Builds a table's schema from a binlog TABLE_MAP event and its {@code binlog_row_metadata=FULL}
 * optional metadata (column names, signedness, character sets, ENUM/SET labels, geometry types,
 * primary key). No DDL is parsed and no query is made. The per-kind metadata lists are walked by
 * {@link TableMapMetadataReader}.
 */
@Internal
public final class BinlogSchemaReader {

    private BinlogSchemaReader() {}

    /**
     * @throws CapstanHaltException BINLOG_ROW_METADATA_NOT_FULL when the event carries no column
     *     names; UNSUPPORTED_COLUMN_TYPE or UNDECODABLE_COLUMN naming the table and column
     */
    public static TableSchema fromTableMap(TableId id, TableMapEventData tableMap) {
        return fromTableMap(id, tableMap, true);
    }

    /**
     * Whether the binlog library reads a SIGNEDNESS bit for a column of this type code: MySQL's
     * numeric types and YEAR (see {@link #yearHasSignednessBit}).
     */
    public static boolean hasLibrarySignedness(int code) {
        ColumnType t = ColumnType.byCode(code);
        if (t == null) {
            return false;
        }
        switch (t) {
            case TINY:
            case SHORT:
            case INT24:
            case LONG:
            case LONGLONG:
            case NEWDECIMAL:
            case FLOAT:
            case DOUBLE:
            case YEAR:
                return true;
            default:
                return false;
        }
    }

    /**
     * Whether a server writes a SIGNEDNESS bit for YEAR columns. MySQL 8.0.15 does not (checked on
     * that server); newer servers do ({@code has_signedess_information_type}, added in 2020: taken
     * here as 8.0.20, an assumption not checked against 8.0.16..8.0.28 servers). MariaDB writes one
     * (checked on 10.11); its handshake version starts {@code 5.5.5-}, which must not read as 5.5.
     */
    public static boolean yearHasSignednessBit(String serverVersion) {
        if (serverVersion.contains("MariaDB")) {
            return true;
        }
        String[] parts = serverVersion.split("[^0-9]+");
        int major = parts.length > 0 && !parts[0].isEmpty() ? Integer.parseInt(parts[0]) : 0;
        int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
        int patch = parts.length > 2 ? Integer.parseInt(parts[2]) : 0;
        if (major != 8) {
            return major > 8;
        }
        return minor > 0 || patch >= 20;
    }

    /**
     * @param yearHasSignednessBit see {@link #yearHasSignednessBit(String)}: the library assumes
     *     true; on older servers its SIGNEDNESS mapping is shifted after a YEAR column and is
     *     corrected here
     */
    public static TableSchema fromTableMap(
            TableId id, TableMapEventData tableMap, boolean yearHasSignednessBit) {
        return fromTableMap(id, tableMap, yearHasSignednessBit, false);
    }

    /**
     * Whether a server lists GEOMETRY columns among the character columns of a table map's
     * COLUMN_CHARSET metadata: MariaDB does (binary, its geometry being a BLOB; checked on 10.11),
     * MySQL does not. Read the wrong way, every later character column takes its neighbour's
     * charset.
     */
    public static boolean geometryHasCharset(String serverVersion) {
        return serverVersion.contains("MariaDB");
    }

    /**
     * @param geometryHasCharset see {@link #geometryHasCharset(String)}
     */
    public static TableSchema fromTableMap(
            TableId id,
            TableMapEventData tableMap,
            boolean yearHasSignednessBit,
            boolean geometryHasCharset) {
        byte[] types = tableMap.getColumnTypes();
        int[] meta = tableMap.getColumnMetadata();
        BitSet nullability = tableMap.getColumnNullability();
        TableMapEventMetadata md = tableMap.getEventMetadata();
        if (md == null
                || md.getColumnNames() == null
                || md.getColumnNames().size() != types.length) {
            throw new CapstanHaltException(
                    HaltReason.BINLOG_ROW_METADATA_NOT_FULL,
                    "the binlog table map of table "
                            + id
                            + " carries no column names. Remedy:"
                            + " SET GLOBAL binlog_row_metadata = FULL (and persist it) on the"
                            + " server.");
        }
        TableMapMetadataReader cursor =
                new TableMapMetadataReader(md, types, yearHasSignednessBit, geometryHasCharset);
        ColumnSchema[] columns = new ColumnSchema[types.length];
        for (int i = 0; i < types.length; i++) {
            String name = checkDecoded(id, i, md.getColumnNames().get(i));
            boolean nullable = nullability != null && nullability.get(i);
            columns[i] = column(id, i, name, types[i] & 0xFF, meta[i], nullable, cursor);
        }
        int[] key = primaryKey(md);
        for (int k : key) {
            if (k < 0 || k >= columns.length) {
                throw new CapstanHaltException(
                        HaltReason.UNDECODABLE_COLUMN,
                        "the binlog table map of table "
                                + id
                                + " names a primary key column"
                                + " that does not exist");
            }
        }
        return new TableSchema(id, Arrays.asList(columns), key);
    }

    private static int[] primaryKey(TableMapEventMetadata md) {
        if (md.getSimplePrimaryKeys() != null) {
            return md.getSimplePrimaryKeys().stream().mapToInt(Integer::intValue).toArray();
        }
        if (md.getPrimaryKeysWithPrefix() != null) {
            return md.getPrimaryKeysWithPrefix().keySet().stream()
                    .mapToInt(Integer::intValue)
                    .toArray();
        }
        return new int[0];
    }

    private static ColumnSchema column(
            TableId id,
            int index,
            String name,
            int code,
            int meta,
            boolean nullable,
            TableMapMetadataReader cursor) {
        int realCode = code;
        int length = meta;
        if (code == ColumnType.STRING.getCode() && meta >= 256) {
            // Same decoding of CHAR/BINARY/ENUM/SET metadata as the row deserializer.
            int meta0 = meta >> 8;
            int meta1 = meta & 0xFF;
            if ((meta0 & 0x30) != 0x30) {
                realCode = meta0 | 0x30;
                length = meta1 | (((meta0 & 0x30) ^ 0x30) << 4);
            } else {
                realCode = meta0;
                length = meta1;
            }
        }
        ColumnType ct = ColumnType.byCode(realCode);
        if (ct == null) {
            throw unsupported(id, name, "binlog type code " + realCode);
        }
        boolean unsigned = cursor.unsigned(index);
        switch (ct) {
            case TINY:
                return simple(id, name, MySqlType.TINYINT, nullable).unsigned(unsigned).build(id);
            case SHORT:
                return simple(id, name, MySqlType.SMALLINT, nullable).unsigned(unsigned).build(id);
            case INT24:
                return simple(id, name, MySqlType.MEDIUMINT, nullable).unsigned(unsigned).build(id);
            case LONG:
                return simple(id, name, MySqlType.INT, nullable).unsigned(unsigned).build(id);
            case LONGLONG:
                return simple(id, name, MySqlType.BIGINT, nullable).unsigned(unsigned).build(id);
            case NEWDECIMAL:
                return simple(id, name, MySqlType.DECIMAL, nullable)
                        .unsigned(unsigned)
                        .precision(meta & 0xFF)
                        .scale(meta >> 8)
                        .build(id);
            case FLOAT:
                return simple(id, name, MySqlType.FLOAT, nullable).unsigned(unsigned).build(id);
            case DOUBLE:
                return simple(id, name, MySqlType.DOUBLE, nullable).unsigned(unsigned).build(id);
            case BIT:
                return simple(id, name, MySqlType.BIT, nullable)
                        .length((meta >> 8) * 8 + (meta & 0xFF))
                        .build(id);
            case DATE:
                return simple(id, name, MySqlType.DATE, nullable).build(id);
            case TIME_V2:
                return simple(id, name, MySqlType.TIME, nullable).precision(meta).build(id);
            case DATETIME_V2:
                return simple(id, name, MySqlType.DATETIME, nullable).precision(meta).build(id);
            case TIMESTAMP_V2:
                return simple(id, name, MySqlType.TIMESTAMP, nullable).precision(meta).build(id);
            case YEAR:
                return simple(id, name, MySqlType.YEAR, nullable).build(id);
            case STRING:
                return characterColumn(
                        id,
                        name,
                        MySqlType.CHAR,
                        MySqlType.BINARY,
                        length,
                        nullable,
                        cursor.nextCharset(id, name));
            case VARCHAR:
            case VAR_STRING:
                return characterColumn(
                        id,
                        name,
                        MySqlType.VARCHAR,
                        MySqlType.VARBINARY,
                        meta,
                        nullable,
                        cursor.nextCharset(id, name));
            case BLOB:
                return blobColumn(id, name, meta, nullable, cursor.nextCharset(id, name));
            case ENUM:
                return simple(id, name, MySqlType.ENUM, nullable)
                        .enumValues(cursor.nextEnumLabels(id, name))
                        .build(id);
            case SET:
                return simple(id, name, MySqlType.SET, nullable)
                        .setValues(cursor.nextSetLabels(id, name))
                        .build(id);
            case JSON:
                return simple(id, name, MySqlType.JSON, nullable).build(id);
            case GEOMETRY:
                cursor.skipGeometryCharset(id, name);
                return simple(id, name, cursor.nextGeometryType(id, name), nullable).build(id);
            case TIME:
            case DATETIME:
            case TIMESTAMP:
                throw unsupported(
                        id,
                        name,
                        "pre-5.6 temporal storage format ("
                                + ct
                                + ")."
                                + " Remedy: ALTER TABLE "
                                + id.quoted()
                                + " FORCE to upgrade the column");
            default:
                throw unsupported(id, name, "binlog type " + ct);
        }
    }

    private static ColumnSchema.Builder simple(
            TableId id, String name, MySqlType type, boolean nullable) {
        return ColumnSchema.builder(name, type).nullable(nullable);
    }

    private static ColumnSchema characterColumn(
            TableId id,
            String name,
            MySqlType textType,
            MySqlType binaryType,
            int byteLength,
            boolean nullable,
            String charset) {
        if (MySqlCharsets.BINARY.equals(charset)) {
            return simple(id, name, binaryType, nullable).length(byteLength).build(id);
        }
        int perChar = MySqlCharsets.maxBytesPerChar(charset);
        if (perChar < 1) {
            throw unsupported(id, name, "character set " + charset);
        }
        return simple(id, name, textType, nullable)
                .charset(charset)
                .length(byteLength / perChar)
                .build(id);
    }

    private static ColumnSchema blobColumn(
            TableId id, String name, int lengthBytes, boolean nullable, String charset) {
        boolean binary = MySqlCharsets.BINARY.equals(charset);
        MySqlType type;
        switch (lengthBytes) {
            case 1:
                type = binary ? MySqlType.TINYBLOB : MySqlType.TINYTEXT;
                break;
            case 2:
                type = binary ? MySqlType.BLOB : MySqlType.TEXT;
                break;
            case 3:
                type = binary ? MySqlType.MEDIUMBLOB : MySqlType.MEDIUMTEXT;
                break;
            case 4:
                type = binary ? MySqlType.LONGBLOB : MySqlType.LONGTEXT;
                break;
            default:
                throw unsupported(id, name, "BLOB length prefix of " + lengthBytes + " bytes");
        }
        return simple(id, name, type, nullable).charset(charset).build(id);
    }

    static CapstanHaltException unsupported(TableId id, String column, String what) {
        return new CapstanHaltException(
                HaltReason.UNSUPPORTED_COLUMN_TYPE,
                "table "
                        + id
                        + " column "
                        + column
                        + ": unsupported "
                        + what
                        + ". Remedy: change the column type (see docs/types.md) or exclude the"
                        + " table from capture.");
    }

    /**
     * The binlog library decodes names and labels with the JVM's default charset; a replacement
     * character means the text was not decodable, so refuse instead of guessing.
     */
    private static String checkDecoded(TableId id, int index, String text) {
        if (text == null || text.indexOf('\uFFFD') >= 0) {
            throw new CapstanHaltException(
                    HaltReason.UNDECODABLE_COLUMN,
                    "table "
                            + id
                            + " column #"
                            + (index + 1)
                            + ": a column name or ENUM/SET label"
                            + " in the binlog table map is not decodable. Remedy: run the JVM with"
                            + " -Dfile.encoding=UTF-8 and use utf8mb4 names and labels.");
        }
        return text;
    }
}
