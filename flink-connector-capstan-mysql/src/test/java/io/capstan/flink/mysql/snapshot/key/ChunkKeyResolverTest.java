package io.capstan.flink.mysql.snapshot.key;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChunkKeyResolverTest {
    private static final TableId T = TableId.of("shop", "orders");

    private static TableKeyMetadata.Column col(
            int pos, String name, String type, boolean nullable) {
        String dataType = type.split("[ (]")[0];
        return new TableKeyMetadata.Column(name, pos, dataType, type, nullable, 10, 2, 16, 3, null);
    }

    private static TableKeyMetadata meta(
            List<TableKeyMetadata.Column> cols, TableKeyMetadata.Index... indexes) {
        return new TableKeyMetadata(T, cols, List.of(indexes));
    }

    private static TableKeyMetadata.Index index(String name, boolean unique, String... cols) {
        return new TableKeyMetadata.Index(name, unique, List.of(cols), false);
    }

    @Test
    void usesThePrimaryKeyInIndexOrder() {
        ChunkKey key =
                ChunkKeyResolver.resolve(
                        meta(
                                List.of(
                                        col(1, "a", "int", false),
                                        col(2, "b", "bigint unsigned", false),
                                        col(3, "c", "varchar(10)", true)),
                                index("PRIMARY", true, "b", "a")),
                        Optional.empty());
        assertThat(key.source()).isEqualTo(ChunkKey.Source.PRIMARY_KEY);
        assertThat(key.rowIndexes()).containsExactly(1, 0);
        assertThat(key.column(0).unsigned()).isTrue();
        assertThat(key.column(0).kind()).isEqualTo(KeyKind.INTEGER);
    }

    @Test
    void aTableWithoutKeyIsKeylessOneUnsplitChunk() {
        ChunkKey key =
                ChunkKeyResolver.resolve(
                        meta(List.of(col(1, "a", "int", false)), index("ia", false, "a")),
                        Optional.empty());
        assertThat(key.isKeyless()).isTrue();
        assertThat(key.source()).isEqualTo(ChunkKey.Source.KEYLESS);
        assertThat(key.arity()).isZero();
        assertThat(key.needsWeights()).isFalse();
    }

    @Test
    void aNonUniqueChunkKeyColumnOfATableWithoutKeySaysWhatToWriteInstead() {
        // mysql-cdc's definition of a table without a key names any column as the chunk key.
        assertThatThrownBy(
                        () ->
                                ChunkKeyResolver.resolve(
                                        meta(
                                                List.of(col(1, "a", "int", false)),
                                                index("ia", false, "a")),
                                        Optional.of("a")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.INVALID_CONFIGURATION))
                .hasMessageContaining("shop.orders")
                .hasMessageContaining("remove 'scan.incremental.snapshot.chunk.key-column'")
                .hasMessageContaining("declare no PRIMARY KEY")
                .hasMessageContaining("one unsplit chunk")
                .hasMessageContaining("scan.snapshot.keyless-table.max-rows");
        assertThatThrownBy(
                        () ->
                                ChunkKeyResolver.resolve(
                                        meta(
                                                List.of(col(1, "a", "int", true)),
                                                index("ia", true, "a")),
                                        Optional.of("a")))
                .hasMessageContaining("nullable")
                .hasMessageContaining("remove 'scan.incremental.snapshot.chunk.key-column'");
    }

    @Test
    void aNonUniqueChunkKeyColumnOfAKeyedTableKeepsItsMessage() {
        assertThatThrownBy(
                        () ->
                                ChunkKeyResolver.resolve(
                                        meta(
                                                List.of(
                                                        col(1, "id", "int", false),
                                                        col(2, "a", "int", false)),
                                                index("PRIMARY", true, "id"),
                                                index("ia", false, "a")),
                                        Optional.of("a")))
                .hasMessageContaining("no UNIQUE index of its own")
                .hasMessageNotContaining("remove");
    }

    @Test
    void acceptsAUniqueNotNullChunkKeyColumn() {
        ChunkKey key =
                ChunkKeyResolver.resolve(
                        meta(
                                List.of(
                                        col(1, "a", "varchar(3)", true),
                                        col(2, "Code", "binary(16)", false)),
                                index("uq", true, "Code")),
                        Optional.of("code"));
        assertThat(key.source()).isEqualTo(ChunkKey.Source.CHUNK_KEY_COLUMN);
        assertThat(key.column(0).kind()).isEqualTo(KeyKind.BINARY);
        assertThat(key.column(0).length()).isEqualTo(16);
        assertThat(key.rowIndexes()).containsExactly(1);
    }

    @Test
    void aTableWithAPrimaryKeyThatCanChunkIsChunkedByItNotByTheConfiguredColumn() {
        // Chunking by the unique column would let an update of it show one row in two chunks.
        ChunkKey key =
                ChunkKeyResolver.resolve(
                        meta(
                                List.of(
                                        col(1, "id", "bigint", false),
                                        col(2, "no", "bigint", false)),
                                index("PRIMARY", true, "id"),
                                index("uq_no", true, "no")),
                        Optional.of("no"));
        assertThat(key.source()).isEqualTo(ChunkKey.Source.PRIMARY_KEY);
        assertThat(key.rowIndexes()).containsExactly(0);
        assertThat(key.rowsCanMoveBetweenChunks()).isFalse();
    }

    @Test
    void theConfiguredColumnChunksATableWhosePrimaryKeyCannotAndRowsMayThenMove() {
        ChunkKey key =
                ChunkKeyResolver.resolve(
                        meta(
                                List.of(
                                        col(1, "id", "double", false),
                                        col(2, "no", "bigint", false)),
                                index("PRIMARY", true, "id"),
                                index("uq_no", true, "no")),
                        Optional.of("no"));
        assertThat(key.source()).isEqualTo(ChunkKey.Source.CHUNK_KEY_COLUMN_BESIDE_PRIMARY_KEY);
        assertThat(key.rowIndexes()).containsExactly(1);
        assertThat(key.rowsCanMoveBetweenChunks()).isTrue();
        // Where the configured column is the primary key, it is the row's identity.
        assertThat(
                        ChunkKeyResolver.resolve(
                                        meta(
                                                List.of(col(1, "id", "bigint", false)),
                                                index("PRIMARY", true, "id")),
                                        Optional.of("ID"))
                                .rowsCanMoveBetweenChunks())
                .isFalse();
    }

    @Test
    void refusesANullableNonUniqueOrMissingChunkKeyColumn() {
        TableKeyMetadata m =
                meta(
                        List.of(
                                col(1, "n", "int", true),
                                col(2, "u", "int", false),
                                col(3, "p", "int", false)),
                        index("un", true, "n"),
                        index("iu", false, "u"),
                        index("pair", true, "p", "u"));
        for (String c : List.of("n", "u", "p", "zz")) {
            assertThatThrownBy(() -> ChunkKeyResolver.resolve(m, Optional.of(c)))
                    .isInstanceOfSatisfying(
                            CapstanHaltException.class,
                            e -> assertThat(e.reason()).isEqualTo(HaltReason.INVALID_CONFIGURATION))
                    .hasMessageContaining("shop.orders")
                    .hasMessageContaining(c);
        }
    }

    @Test
    void refusesStringEnumAndFloatKeysNamingTableColumnAndRemedy() {
        for (String type :
                List.of(
                        "varchar(20)",
                        "char(2)",
                        "text",
                        "enum('x','y')",
                        "set('x')",
                        "double",
                        "float",
                        "json")) {
            assertThatThrownBy(
                            () ->
                                    ChunkKeyResolver.resolve(
                                            meta(
                                                    List.of(col(1, "k", type, false)),
                                                    index("PRIMARY", true, "k")),
                                            Optional.empty()))
                    .isInstanceOfSatisfying(
                            CapstanHaltException.class,
                            e -> assertThat(e.reason()).isEqualTo(HaltReason.UNSUPPORTED_CHUNK_KEY))
                    .hasMessageContaining("shop.orders")
                    .hasMessageContaining("column k")
                    .hasMessageContaining("scan.incremental.snapshot.chunk.key-column")
                    .hasMessageNotContaining("'x'");
        }
    }

    private static TableKeyMetadata.Column text(String type, String collation) {
        return new TableKeyMetadata.Column(
                "k", 1, type.split("[ (]")[0], type, false, 0, 0, 40, 0, collation);
    }

    @Test
    void acceptsCharacterKeysInBinaryPadSpaceCollations() {
        for (String collation :
                List.of("utf8mb4_bin", "utf8mb3_bin", "utf8_bin", "ascii_bin", "UTF8MB4_BIN")) {
            for (String type : List.of("varchar(10)", "char(10)")) {
                ChunkKey key =
                        ChunkKeyResolver.resolve(
                                meta(List.of(text(type, collation)), index("PRIMARY", true, "k")),
                                Optional.empty());
                assertThat(key.column(0).kind())
                        .as(type + " " + collation)
                        .isEqualTo(KeyKind.STRING_PAD_SPACE);
            }
        }
    }

    @Test
    void ordersCharacterKeysInAnyOtherCollationByTheServersWeights() {
        for (String collation :
                List.of(
                        "utf8mb4_0900_ai_ci",
                        "utf8mb4_general_ci",
                        "latin1_swedish_ci",
                        "latin1_bin",
                        "utf8mb4_0900_bin")) {
            KeyCollation weighing =
                    new KeyCollation(
                            collation, collation.split("_")[0], true, new byte[] {0x00, 0x20});
            for (String type : List.of("varchar(10)", "char(10)")) {
                ChunkKey key =
                        ChunkKeyResolver.resolve(
                                meta(
                                        List.of(text(type, collation).withWeighing(weighing)),
                                        index("PRIMARY", true, "k")),
                                Optional.empty());
                assertThat(key.column(0).kind())
                        .as(type + " " + collation)
                        .isEqualTo(KeyKind.STRING_COLLATED);
                assertThat(key.column(0).collation()).isEqualTo(weighing);
                assertThat(key.needsWeights()).isTrue();
            }
        }
    }

    @Test
    void refusesACharacterKeyWhoseCollationTheServerCannotWeighNamingIt() {
        assertThatThrownBy(
                        () ->
                                ChunkKeyResolver.resolve(
                                        meta(
                                                List.of(text("varchar(10)", "utf8mb4_general_ci")),
                                                index("PRIMARY", true, "k")),
                                        Optional.empty()))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.UNSUPPORTED_CHUNK_KEY))
                .hasMessageContaining("collation utf8mb4_general_ci")
                .hasMessageContaining("WEIGHT_STRING")
                .hasMessageContaining("scan.incremental.snapshot.chunk.key-column");
    }

    @Test
    void classifiesEverySupportedType() {
        String[][] cases = {
            {"tinyint", "INTEGER"}, {"smallint unsigned", "INTEGER"}, {"mediumint", "INTEGER"},
            {"int", "INTEGER"}, {"bigint unsigned", "INTEGER"}, {"decimal(10,2)", "DECIMAL"},
            {"date", "DATE"}, {"time(3)", "TIME"}, {"datetime(6)", "DATETIME"},
            {"timestamp", "TIMESTAMP"}, {"year", "YEAR"}, {"binary(16)", "BINARY"},
            {"varbinary(10)", "VARBINARY"}, {"bit(8)", "BIT"}
        };
        for (String[] c : cases) {
            ChunkKey key =
                    ChunkKeyResolver.resolve(
                            meta(List.of(col(1, "k", c[0], false)), index("PRIMARY", true, "k")),
                            Optional.empty());
            assertThat(key.column(0).kind().name()).as(c[0]).isEqualTo(c[1]);
        }
    }

    @Test
    void refusesAnInvisibleOrMissingTable() {
        assertThatThrownBy(() -> ChunkKeyResolver.resolve(meta(List.of()), Optional.empty()))
                .isInstanceOf(CapstanHaltException.class)
                .hasMessageContaining("shop.orders");
    }
}
