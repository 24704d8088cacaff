package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyColumn;
import io.capstan.flink.mysql.snapshot.key.KeyKind;
import io.capstan.flink.mysql.snapshot.key.TestKeys;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The snapshot SELECT list: every column, or the requested ones plus the chunk key. */
class TableReadSpecTest {

    private static final TableSchema SCHEMA =
            new TableSchema(
                    TestKeys.TABLE,
                    List.of(
                            ColumnSchema.builder("note", MySqlType.VARCHAR)
                                    .length(64)
                                    .charset("utf8mb4")
                                    .build(TestKeys.TABLE),
                            ColumnSchema.builder("id", MySqlType.BIGINT)
                                    .nullable(false)
                                    .build(TestKeys.TABLE),
                            ColumnSchema.builder("name", MySqlType.VARCHAR)
                                    .length(64)
                                    .charset("utf8mb4")
                                    .build(TestKeys.TABLE)),
                    new int[] {1});

    private static final ChunkKey KEY =
            new ChunkKey(
                    TestKeys.TABLE,
                    List.of(new KeyColumn("id", 1, KeyKind.INTEGER, false, 0, 0, "bigint")),
                    ChunkKey.Source.PRIMARY_KEY);

    @Test
    void withoutAColumnListEveryColumnIsRead() {
        TableReadSpec spec = TableReadSpec.forSchema(KEY, SCHEMA, Optional.empty());
        assertThat(spec.columns()).containsExactly("note", "id", "name");
        assertThat(spec.selectPrefix()).isEqualTo("SELECT `note`, `id`, `name` FROM `db`.`t`");
    }

    @Test
    void aColumnListReadsThoseAndTheChunkKeyInTableOrder() {
        TableReadSpec spec =
                TableReadSpec.forSchema(KEY, SCHEMA, Optional.of(Set.of("NAME", "missing")));
        assertThat(spec.columns()).containsExactly("id", "name");
        assertThat(spec.selectPrefix()).isEqualTo("SELECT `id`, `name` FROM `db`.`t`");
        assertThat(TableReadSpec.forSchema(KEY, SCHEMA, Optional.of(Set.of())).columns())
                .containsExactly("id");
    }

    @Test
    void aFloatColumnIsSelectedAsItsExactDouble() {
        TableSchema withFloat =
                new TableSchema(
                        TestKeys.TABLE,
                        List.of(
                                ColumnSchema.builder("id", MySqlType.BIGINT)
                                        .nullable(false)
                                        .build(TestKeys.TABLE),
                                ColumnSchema.builder("w", MySqlType.FLOAT).build(TestKeys.TABLE)),
                        new int[] {0});
        ChunkKey key =
                new ChunkKey(
                        TestKeys.TABLE,
                        List.of(new KeyColumn("id", 0, KeyKind.INTEGER, false, 0, 0, "bigint")),
                        ChunkKey.Source.PRIMARY_KEY);
        TableReadSpec spec = TableReadSpec.forSchema(key, withFloat, Optional.empty());
        assertThat(spec.columns()).containsExactly("id", "w");
        assertThat(spec.selectPrefix()).isEqualTo("SELECT `id`, `w` * 1e0 FROM `db`.`t`");
        assertThat(
                        TableReadSpec.forSchema(key, withFloat, Optional.of(Set.of("w")))
                                .fingerprinted(7)
                                .selectPrefix())
                .isEqualTo("SELECT `id`, `w` * 1e0 FROM `db`.`t`");
    }
}
