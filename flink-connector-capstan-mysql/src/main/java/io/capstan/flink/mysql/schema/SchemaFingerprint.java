package io.capstan.flink.mysql.schema;

import org.apache.flink.annotation.Internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;

/**
 * A stable 64-bit digest of a table's schema as the connector converts and chunks it. Taken by the
 * enumerator when the snapshot starts and carried in every chunk split, so a reader in any attempt,
 * after any restore, refuses to read a chunk under another schema: a DDL on a table whose snapshot
 * is in progress halts as {@code snapshot_schema_drifted} instead of mixing two schemas. Pure.
 *
 * <p>Two versions, both a long in the same place of the state: {@link #of(TableSchema)} (version 1:
 * column names, types, lengths, charsets, nullability, ENUM/SET members, key positions), which
 * checkpoints written before version 2 carry, and {@link #of(TableSchema, List, List)} (version 2,
 * written since: also each column's collation, which orders a string chunk key's ranges, and the
 * unique index that makes the chunk key a key). A reader accepts either; see {@code
 * TableFingerprints}.
 */
@Internal
public final class SchemaFingerprint {

    private SchemaFingerprint() {}

    /** Version 1: the schema alone. */
    public static long of(TableSchema schema) {
        return digest(schemaText(schema));
    }

    /**
     * Version 2.
     *
     * @param collations each column's collation in column order, "" for a column without one
     * @param keyIndexes the unique indexes on exactly the chunk key's columns, as {@code
     *     name(column,...)}, sorted
     */
    public static long of(TableSchema schema, List<String> collations, List<String> keyIndexes) {
        if (collations.size() != schema.columnCount()) {
            throw new IllegalArgumentException(
                    collations.size() + " collations for " + schema.columnCount() + " columns");
        }
        StringBuilder sb = schemaText(schema).append('\u0003');
        for (String c : collations) {
            sb.append(c).append('\u0001');
        }
        sb.append('\u0003');
        for (String index : keyIndexes) {
            sb.append(index).append('\u0001');
        }
        return digest(sb);
    }

    private static StringBuilder schemaText(TableSchema schema) {
        StringBuilder sb = new StringBuilder();
        for (ColumnSchema c : schema.columns()) {
            sb.append(c.name())
                    .append('\u0001')
                    .append(c.type().name())
                    .append('\u0001')
                    .append(c.unsigned())
                    .append('\u0001')
                    .append(c.length())
                    .append('\u0001')
                    .append(c.precision())
                    .append('\u0001')
                    .append(c.scale())
                    .append('\u0001')
                    .append(c.charset())
                    .append('\u0001')
                    .append(c.enumValues())
                    .append('\u0001')
                    .append(c.setValues())
                    .append('\u0001')
                    .append(c.nullable())
                    .append('\u0002');
        }
        sb.append(Arrays.toString(schema.keyColumnIndexes()));
        return sb;
    }

    private static long digest(StringBuilder sb) {
        try {
            byte[] d =
                    MessageDigest.getInstance("SHA-256")
                            .digest(sb.toString().getBytes(StandardCharsets.UTF_8));
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (d[i] & 0xFF);
            }
            return v;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
