package io.capstan.flink.mysql.snapshot.key;

import io.capstan.flink.mysql.schema.TableId;

import java.util.ArrayList;
import java.util.List;

/** Chunk keys for unit tests. */
public final class TestKeys {
    public static final TableId TABLE = TableId.of("db", "t");

    private TestKeys() {}

    public static KeyColumn column(String name, int index, KeyKind kind, int length, String type) {
        return new KeyColumn(name, index, kind, false, length, 0, type);
    }

    public static ChunkKey bigint() {
        return new ChunkKey(
                TABLE,
                List.of(column("id", 0, KeyKind.INTEGER, 0, "bigint")),
                ChunkKey.Source.PRIMARY_KEY);
    }

    public static ChunkKey of(KeyKind... kinds) {
        List<KeyColumn> cols = new ArrayList<>();
        for (int i = 0; i < kinds.length; i++) {
            cols.add(
                    column(
                            "k" + i,
                            i,
                            kinds[i],
                            kinds[i] == KeyKind.BINARY ? 8 : 0,
                            kinds[i].name().toLowerCase(java.util.Locale.ROOT)));
        }
        return new ChunkKey(TABLE, cols, ChunkKey.Source.PRIMARY_KEY);
    }
}
