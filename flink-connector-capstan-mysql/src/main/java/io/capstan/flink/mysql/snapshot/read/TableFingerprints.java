package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.SchemaFingerprint;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyColumn;
import io.capstan.flink.mysql.snapshot.key.TableKeyMetadata;

import org.apache.flink.annotation.Internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The fingerprint a table's chunks are read under ({@link SchemaFingerprint}, version 2): its
 * schema, each column's collation (a string chunk key's ranges are ordered by it: a collation
 * change between chunks would skip or repeat rows) and the unique index that makes the chunk key a
 * key. Built from what information_schema says ({@link TableKeyMetadata}).
 */
@Internal
public final class TableFingerprints {

    private TableFingerprints() {}

    /** The version-2 fingerprint of the table as {@code schema} and {@code meta} describe it. */
    public static long of(TableSchema schema, TableKeyMetadata meta, ChunkKey key) {
        return SchemaFingerprint.of(schema, collations(schema, meta), keyIndexes(meta, key));
    }

    /**
     * Whether the table still is the one fingerprinted as {@code stored}: its version-2
     * fingerprint, or, for a split from a checkpoint written before version 2, its version-1 one
     * and the chunk key's collations (which the split's key carries) unchanged.
     */
    public static boolean matches(
            long stored, TableSchema schema, TableKeyMetadata meta, ChunkKey key) {
        if (stored == of(schema, meta, key)) {
            return true;
        }
        return stored == SchemaFingerprint.of(schema) && keyCollationsUnchanged(meta, key);
    }

    private static List<String> collations(TableSchema schema, TableKeyMetadata meta) {
        List<String> out = new ArrayList<>(schema.columnCount());
        for (ColumnSchema c : schema.columns()) {
            out.add(
                    column(meta, c.name())
                            .map(TableFingerprints::collation)
                            .orElse("?")); // gone: the schema differs anyway
        }
        return out;
    }

    private static List<String> keyIndexes(TableKeyMetadata meta, ChunkKey key) {
        List<String> names = new ArrayList<>(key.arity());
        for (KeyColumn c : key.columns()) {
            names.add(c.name());
        }
        return meta.uniqueIndexesOn(names);
    }

    private static boolean keyCollationsUnchanged(TableKeyMetadata meta, ChunkKey key) {
        for (KeyColumn k : key.columns()) {
            String expected =
                    k.collation() == null ? "" : k.collation().name().toLowerCase(Locale.ROOT);
            String now = column(meta, k.name()).map(TableFingerprints::collation).orElse("?");
            if (!expected.isEmpty() && !expected.equals(now)) {
                return false;
            }
        }
        return true;
    }

    private static String collation(TableKeyMetadata.Column c) {
        return c.collationName() == null ? "" : c.collationName().toLowerCase(Locale.ROOT);
    }

    private static java.util.Optional<TableKeyMetadata.Column> column(
            TableKeyMetadata meta, String name) {
        return meta.columns().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst();
    }
}
