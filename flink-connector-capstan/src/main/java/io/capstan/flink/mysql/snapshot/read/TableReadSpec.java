package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import java.util.List;
import java.util.Objects;

/**
 * What to read from one table's chunks: its chunk key, the columns to select (the schema's
 * columns, in the order the decoder expects them) and the decoder. Build one per table and schema.
 */
public final class TableReadSpec {
    private final ChunkKey key;
    private final List<String> columns;
    private final JdbcRowDecoder decoder;
    private final String selectPrefix;

    public TableReadSpec(ChunkKey key, List<String> columns, JdbcRowDecoder decoder) {
        this.key = Objects.requireNonNull(key, "key");
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("no columns to read from table " + key.table());
        }
        this.columns = List.copyOf(columns);
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        StringBuilder sb = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append('`').append(columns.get(i).replace("`", "``")).append('`');
        }
        this.selectPrefix = sb.append(" FROM ").append(key.table().quoted()).toString();
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

    /** {@code SELECT `a`, `b` FROM `db`.`t`}. */
    String selectPrefix() {
        return selectPrefix;
    }
}
