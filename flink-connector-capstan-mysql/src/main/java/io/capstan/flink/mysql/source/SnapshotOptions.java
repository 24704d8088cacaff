package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.OptionRules;
import io.capstan.flink.mysql.convert.SpatialValueForm;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How the snapshot is cut and read: rows per chunk, how chunks are read, the chunk key column of
 * tables that have none (or whose primary key should not be used), and how large a table without
 * any key (read as one unsplit chunk) may be. A column configured for a table ({@code db.table})
 * wins over the column configured for all tables. Immutable.
 */
@Internal
public final class SnapshotOptions implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final int DEFAULT_CHUNK_SIZE =
            CapstanMySqlOptions.SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE.defaultValue();

    public static final long DEFAULT_KEYLESS_TABLE_MAX_ROWS =
            CapstanMySqlOptions.SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS.defaultValue();

    private final int chunkSize;
    private final SnapshotReadOptions readOptions;
    @Nullable private final String chunkKeyColumnForAllTables;
    private final TreeMap<String, String> chunkKeyColumnByTable;
    private final long keylessTableMaxRows;
    private final SnapshotLoadLimits loadLimits;

    public SnapshotOptions(
            int chunkSize,
            SnapshotReadOptions readOptions,
            @Nullable String chunkKeyColumnForAllTables,
            Map<String, String> chunkKeyColumnByTable) {
        this(
                chunkSize,
                readOptions,
                chunkKeyColumnForAllTables,
                chunkKeyColumnByTable,
                DEFAULT_KEYLESS_TABLE_MAX_ROWS,
                SnapshotLoadLimits.NONE);
    }

    /**
     * @param keylessTableMaxRows the largest estimated row count of a table without a unique key
     *     (read as one unsplit chunk)
     * @param loadLimits the snapshot's rate and concurrency limits
     */
    public SnapshotOptions(
            int chunkSize,
            SnapshotReadOptions readOptions,
            @Nullable String chunkKeyColumnForAllTables,
            Map<String, String> chunkKeyColumnByTable,
            long keylessTableMaxRows,
            SnapshotLoadLimits loadLimits) {
        this.loadLimits = Objects.requireNonNull(loadLimits, "loadLimits");
        this.keylessTableMaxRows = OptionRules.keylessTableMaxRows(keylessTableMaxRows);
        this.chunkSize = OptionRules.chunkSize(chunkSize);
        this.readOptions = Objects.requireNonNull(readOptions, "readOptions");
        this.chunkKeyColumnForAllTables = chunkKeyColumnForAllTables;
        this.chunkKeyColumnByTable = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        this.chunkKeyColumnByTable.putAll(chunkKeyColumnByTable);
    }

    public static SnapshotOptions defaults() {
        return new SnapshotOptions(
                DEFAULT_CHUNK_SIZE, SnapshotReadOptions.defaults(), null, Map.of());
    }

    public int chunkSize() {
        return chunkSize;
    }

    /** The snapshot's rate and concurrency limits. */
    public SnapshotLoadLimits loadLimits() {
        return loadLimits;
    }

    /** The largest estimated row count of a table without a unique key (one unsplit chunk). */
    public long keylessTableMaxRows() {
        return keylessTableMaxRows;
    }

    public SnapshotReadOptions readOptions() {
        return readOptions;
    }

    /** The chunk key column configured for every table, if any. */
    public Optional<String> chunkKeyColumnForAllTables() {
        return Optional.ofNullable(chunkKeyColumnForAllTables);
    }

    /**
     * These options reading only {@code columns} in the snapshot (see {@link SnapshotReadOptions}).
     */
    public SnapshotOptions withReadColumns(Collection<String> columns) {
        return new SnapshotOptions(
                chunkSize,
                readOptions.withColumns(columns),
                chunkKeyColumnForAllTables,
                chunkKeyColumnByTable,
                keylessTableMaxRows,
                loadLimits);
    }

    /**
     * These options delivering spatial values in {@code form} (see {@link SnapshotReadOptions}).
     */
    public SnapshotOptions withSpatialForm(SpatialValueForm form) {
        return new SnapshotOptions(
                chunkSize,
                readOptions.withSpatialForm(form),
                chunkKeyColumnForAllTables,
                chunkKeyColumnByTable,
                keylessTableMaxRows,
                loadLimits);
    }

    /** The configured chunk key column of a table, if any. */
    public Optional<String> chunkKeyColumn(TableId table) {
        String c = chunkKeyColumnByTable.get(table.toString());
        return Optional.ofNullable(c != null ? c : chunkKeyColumnForAllTables);
    }

    /** Equal when every setting is; table names and columns compare case-insensitively. */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SnapshotOptions)) {
            return false;
        }
        SnapshotOptions that = (SnapshotOptions) o;
        return chunkSize == that.chunkSize
                && keylessTableMaxRows == that.keylessTableMaxRows
                && loadLimits.equals(that.loadLimits)
                && readOptions.equals(that.readOptions)
                && Objects.equals(chunkKeyColumnForAllTables, that.chunkKeyColumnForAllTables)
                // both maps compare keys case-insensitively, so equals does too
                && chunkKeyColumnByTable.equals(that.chunkKeyColumnByTable);
    }

    @Override
    public int hashCode() {
        // The map's own hash code hashes keys case-sensitively; its size agrees with equals.
        return Objects.hash(
                chunkSize,
                readOptions,
                chunkKeyColumnForAllTables,
                chunkKeyColumnByTable.size(),
                keylessTableMaxRows,
                loadLimits);
    }

    @Override
    public String toString() {
        return "SnapshotOptions{chunkSize="
                + chunkSize
                + ", "
                + readOptions
                + ", chunkKeyColumn="
                + chunkKeyColumnForAllTables
                + ", chunkKeyColumnByTable="
                + chunkKeyColumnByTable
                + ", keylessTableMaxRows="
                + keylessTableMaxRows
                + ", "
                + loadLimits
                + "}";
    }
}
