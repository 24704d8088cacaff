package io.capstan.flink.mysql.schema;

import org.apache.flink.annotation.Internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * A stable 64-bit digest of a table's schema as the connector converts it (column names, types,
 * lengths, charsets, nullability, ENUM/SET members, key positions). Taken by the enumerator when
 * the snapshot starts and carried in every chunk split, so a reader in any attempt, after any
 * restore, refuses to read a chunk under another schema: a DDL on a table whose snapshot is in
 * progress halts as {@code snapshot_schema_drifted} instead of mixing two schemas. Pure.
 */
@Internal
public final class SchemaFingerprint {

    private SchemaFingerprint() {}

    public static long of(TableSchema schema) {
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
