package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcTableKeyMetadataReader;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;

import org.apache.flink.annotation.Internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Whether a table still has the schema the job took, checked in each chunk's read view (ADR 0002,
 * decision 3). B took its metadata lock on the table under A's lock (no DDL could run since) and
 * holds it until COMMIT, so no DDL can run between this check and the read: the rows are read under
 * the expected schema. A DDL that changed it at any time since the job took the schema, instant
 * ones included, is caught. The first chunk of a table compares the full schema
 * (information_schema) and, for a fingerprinted spec, the columns' collations and the chunk key's
 * index ({@link TableFingerprints}): a {@code MODIFY ... COLLATE} of a string key would reorder its
 * ranges. Later chunks compare the server's table definition text, read with the read view, with
 * the one seen then (no extra query), and repeat the full comparison when it changed.
 */
@Internal
public final class SchemaDriftCheck {

    /** Per table, the definition text last verified against the job's schema. */
    private final Map<TableId, String> verifiedDefinitions = new HashMap<>();

    /**
     * @param snapshotConnection B, inside the chunk's read view
     * @param definition the table's definition read with the read view
     * @throws CapstanHaltException {@code snapshot_schema_drifted}
     */
    void verify(
            Connection snapshotConnection,
            SnapshotChunk chunk,
            TableReadSpec spec,
            String definition)
            throws SQLException {
        String known = verifiedDefinitions.get(chunk.table());
        if (known != null && known.equals(definition)) {
            return;
        }
        TableSchema now = JdbcSchemaReader.read(snapshotConnection, chunk.table());
        if (!now.equals(spec.schema())) {
            throw drifted(chunk);
        }
        if (spec.fingerprint().isPresent()
                && TableFingerprints.of(
                                now,
                                JdbcTableKeyMetadataReader.read(snapshotConnection, chunk.table()),
                                spec.key())
                        != spec.fingerprint().getAsLong()) {
            throw drifted(chunk);
        }
        verifiedDefinitions.put(chunk.table(), definition);
    }

    /** The halt for a table whose definition changed while its snapshot was in progress. */
    static CapstanHaltException drifted(SnapshotChunk chunk) {
        return drifted(chunk.table(), "detected reading chunk " + chunk.id());
    }

    /**
     * The halt for {@code table}, whose definition changed while its snapshot was in progress.
     *
     * @param detected where it was seen, e.g. {@code "detected before reading chunk db.t#3"}
     */
    public static CapstanHaltException drifted(TableId table, String detected) {
        return new CapstanHaltException(
                HaltReason.SNAPSHOT_SCHEMA_DRIFTED,
                "the definition of table "
                        + table
                        + " changed while its snapshot was in progress ("
                        + detected
                        + "), so its chunks would not fit one schema; restart the job without state"
                        + " once the schema change is done (avoid DDL on tables being"
                        + " snapshotted)");
    }
}
