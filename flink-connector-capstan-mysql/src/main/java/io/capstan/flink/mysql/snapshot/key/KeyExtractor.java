package io.capstan.flink.mysql.snapshot.key;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import java.io.Serializable;

/**
 * Extracts a row's chunk key by the key columns' field positions. The same extractor serves
 * snapshot rows and binlog before/after images, because both come from one RowConverter per schema
 * and therefore hold identical internal values for identical MySQL values.
 */
@Internal
public final class KeyExtractor implements Serializable {
    private static final long serialVersionUID = 1L;

    private final TableId table; // for messages
    private final String[] names; // the key columns', for messages
    private final int[] indexes;
    private final RowData.FieldGetter[] getters; // null: rows are GenericRowData
    private final boolean[] collated; // STRING_COLLATED columns: their weights come from the server
    private final boolean needsWeights; // some column is collated (checked per row by extract)

    private KeyExtractor(
            ChunkKey key, int[] indexes, RowData.FieldGetter[] getters, boolean[] collated) {
        this.table = key.table();
        this.names = new String[key.arity()];
        for (int i = 0; i < names.length; i++) {
            names[i] = key.column(i).name();
        }
        this.indexes = indexes;
        this.getters = getters;
        this.collated = collated;
        boolean any = false;
        for (boolean c : collated) {
            any |= c;
        }
        this.needsWeights = any;
    }

    /** For GenericRowData rows (what RowConverter produces). */
    public static KeyExtractor of(ChunkKey key) {
        return new KeyExtractor(key, key.rowIndexes(), null, collated(key));
    }

    private static boolean[] collated(ChunkKey key) {
        boolean[] c = new boolean[key.arity()];
        for (int i = 0; i < c.length; i++) {
            c[i] = key.column(i).kind() == KeyKind.STRING_COLLATED;
        }
        return c;
    }

    /** Whether some key column is ordered by the server's weights, which a row does not carry. */
    public boolean needsWeights() {
        return needsWeights;
    }

    /** For rows of any RowData implementation of the given row type. */
    public static KeyExtractor of(ChunkKey key, RowType rowType) {
        int[] idx = key.rowIndexes();
        RowData.FieldGetter[] g = new RowData.FieldGetter[idx.length];
        for (int i = 0; i < idx.length; i++) {
            LogicalType t = rowType.getTypeAt(idx[i]);
            // nullable: Flink 1.20's getter of a NOT NULL type skips the null check (2.x does not)
            g[i] = RowData.createFieldGetter(t.copy(true), idx[i]);
        }
        return new KeyExtractor(key, idx, g, collated(key));
    }

    /**
     * The key of a row; a NULL key field halts ({@link #value}). IllegalState for a key with
     * collated columns: their order needs weights, see {@link #extract(RowData, byte[][])}.
     */
    public KeyTuple extract(RowData row) {
        if (needsWeights()) {
            throw new IllegalStateException(
                    "a key with collated string columns is compared by the server's weights,"
                            + " which were not fetched for this row");
        }
        return KeyTuple.wrap(values(row));
    }

    /**
     * The key of a row whose collated columns weigh {@code weights[i]} (for key column i; entries
     * of other columns are ignored), as the server computed them.
     */
    public KeyTuple extract(RowData row, byte[][] weights) {
        Object[] values = values(row);
        for (int i = 0; i < values.length; i++) {
            if (collated[i]) {
                values[i] = new CollatedString((StringData) values[i], weights[i]);
            }
        }
        return KeyTuple.wrap(values);
    }

    /** The text of collated key column {@code keyColumn} of a row, whose weight is to be asked. */
    public StringData text(RowData row, int keyColumn) {
        if (!collated[keyColumn]) {
            throw new IllegalArgumentException("key column " + keyColumn + " is not collated");
        }
        return (StringData) value(row, keyColumn);
    }

    private Object[] values(RowData row) {
        Object[] values = new Object[indexes.length];
        for (int i = 0; i < indexes.length; i++) {
            values[i] = value(row, i);
        }
        return values;
    }

    private Object value(RowData row, int i) {
        Object v;
        if (row instanceof GenericRowData) {
            v = ((GenericRowData) row).getField(indexes[i]);
        } else if (getters != null) {
            v = getters[i].getFieldOrNull(row);
        } else {
            throw new IllegalArgumentException(
                    "rows other than GenericRowData need KeyExtractor.of(key, rowType)");
        }
        if (v == null) {
            throw nullKey(i);
        }
        return v;
    }

    /**
     * A chunk key is NOT NULL when the snapshot plans it; a NULL in it means the column was made
     * nullable later, while the table's snapshot or its gate still orders rows by it (a NULL has no
     * place among the chunks' ranges): a named halt, not an error that restarts for ever.
     */
    private CapstanHaltException nullKey(int i) {
        return new CapstanHaltException(
                HaltReason.SNAPSHOT_SCHEMA_DRIFTED,
                "a row of "
                        + table
                        + " holds NULL in chunk key column `"
                        + names[i]
                        + "`, which was NOT NULL when the snapshot planned its chunks: the column was"
                        + " made nullable (ALTER TABLE ... MODIFY ... NULL) while the table's"
                        + " snapshot, or the binlog's filtering of what its chunks hold, was in"
                        + " progress. Remedy: restart the job without state (a new snapshot) once"
                        + " the change is done; avoid DDL on chunk keys of tables being"
                        + " snapshotted.");
    }
}
