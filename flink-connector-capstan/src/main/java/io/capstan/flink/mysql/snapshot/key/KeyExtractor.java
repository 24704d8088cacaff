package io.capstan.flink.mysql.snapshot.key;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
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

    private final int[] indexes;
    private final RowData.FieldGetter[] getters; // null: rows are GenericRowData

    private KeyExtractor(int[] indexes, RowData.FieldGetter[] getters) {
        this.indexes = indexes;
        this.getters = getters;
    }

    /** For GenericRowData rows (what RowConverter produces). */
    public static KeyExtractor of(ChunkKey key) {
        return new KeyExtractor(key.rowIndexes(), null);
    }

    /** For rows of any RowData implementation of the given row type. */
    public static KeyExtractor of(ChunkKey key, RowType rowType) {
        int[] idx = key.rowIndexes();
        RowData.FieldGetter[] g = new RowData.FieldGetter[idx.length];
        for (int i = 0; i < idx.length; i++) {
            LogicalType t = rowType.getTypeAt(idx[i]);
            g[i] = RowData.createFieldGetter(t, idx[i]);
        }
        return new KeyExtractor(idx, g);
    }

    /** The key of a row; a NULL key field (impossible for a valid key) is an error. */
    public KeyTuple extract(RowData row) {
        Object[] values = new Object[indexes.length];
        for (int i = 0; i < indexes.length; i++) {
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
                throw new IllegalStateException(
                        "key field at position "
                                + indexes[i]
                                + " is NULL; a chunk key is NOT NULL");
            }
            values[i] = v;
        }
        return KeyTuple.wrap(values);
    }
}
