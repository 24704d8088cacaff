package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.SchemaFingerprint;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyCollation;
import io.capstan.flink.mysql.snapshot.key.KeyColumn;
import io.capstan.flink.mysql.snapshot.key.KeyKind;
import io.capstan.flink.mysql.snapshot.key.TableKeyMetadata;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The read fingerprint (version 2) sees what the converted schema does not: a column's collation,
 * the chunk key's unique index; a version-1 fingerprint from an older checkpoint still matches an
 * unchanged table, but not one whose key collation changed.
 */
class TableFingerprintsTest {

    private static final TableId T = TableId.of("shop", "codes");

    private static final TableSchema SCHEMA =
            new TableSchema(
                    T,
                    List.of(
                            ColumnSchema.builder("k", MySqlType.VARCHAR)
                                    .length(32)
                                    .charset("utf8mb4")
                                    .nullable(false)
                                    .build(T),
                            ColumnSchema.builder("s", MySqlType.VARCHAR)
                                    .length(32)
                                    .charset("utf8mb4")
                                    .build(T)),
                    new int[] {0});

    private static final ChunkKey KEY =
            new ChunkKey(
                    T,
                    List.of(
                            new KeyColumn(
                                    "k",
                                    0,
                                    KeyKind.STRING_COLLATED,
                                    false,
                                    0,
                                    0,
                                    "varchar",
                                    new KeyCollation(
                                            "utf8mb4_0900_ai_ci",
                                            "utf8mb4",
                                            false,
                                            new byte[] {2, 9}))),
                    ChunkKey.Source.PRIMARY_KEY);

    private static TableKeyMetadata meta(
            String keyCollation, String otherCollation, boolean unique) {
        return new TableKeyMetadata(
                T,
                List.of(column("k", 1, keyCollation, false), column("s", 2, otherCollation, true)),
                List.of(new TableKeyMetadata.Index("PRIMARY", unique, List.of("k"), false)));
    }

    private static TableKeyMetadata.Column column(
            String name, int position, String collation, boolean nullable) {
        return new TableKeyMetadata.Column(
                name, position, "varchar", "varchar(32)", nullable, 0, 0, 128, 0, collation);
    }

    private static final TableKeyMetadata AS_PLANNED =
            meta("utf8mb4_0900_ai_ci", "utf8mb4_0900_ai_ci", true);

    @Test
    void collationsAndTheKeysIndexAreFingerprinted() {
        long planned = TableFingerprints.of(SCHEMA, AS_PLANNED, KEY);
        assertThat(TableFingerprints.of(SCHEMA, AS_PLANNED, KEY)).isEqualTo(planned);
        assertThat(
                        TableFingerprints.of(
                                SCHEMA,
                                meta("UTF8MB4_0900_AI_CI", "utf8mb4_0900_ai_ci", true),
                                KEY))
                .as("collation names compare ignoring case")
                .isEqualTo(planned);
        for (TableKeyMetadata changed :
                List.of(
                        meta("utf8mb4_bin", "utf8mb4_0900_ai_ci", true),
                        meta("utf8mb4_0900_ai_ci", "utf8mb4_bin", true),
                        meta("utf8mb4_0900_ai_ci", "utf8mb4_0900_ai_ci", false))) {
            assertThat(TableFingerprints.of(SCHEMA, changed, KEY)).isNotEqualTo(planned);
            assertThat(TableFingerprints.matches(planned, SCHEMA, changed, KEY)).isFalse();
        }
        assertThat(TableFingerprints.matches(planned, SCHEMA, AS_PLANNED, KEY)).isTrue();
        assertThat(planned).isNotEqualTo(SchemaFingerprint.of(SCHEMA));
    }

    /** Splits and enumerator state checkpointed before version 2 carry the schema-only digest. */
    @Test
    void aVersionOneFingerprintFromAnOlderCheckpointStillMatchesAnUnchangedTable() {
        long v1 = SchemaFingerprint.of(SCHEMA);
        assertThat(TableFingerprints.matches(v1, SCHEMA, AS_PLANNED, KEY)).isTrue();
        // The split's key carries its collation: a key collation change is caught even so.
        assertThat(
                        TableFingerprints.matches(
                                v1, SCHEMA, meta("utf8mb4_bin", "utf8mb4_0900_ai_ci", true), KEY))
                .isFalse();
        assertThat(TableFingerprints.matches(v1 + 1, SCHEMA, AS_PLANNED, KEY)).isFalse();
    }
}
