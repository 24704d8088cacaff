package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.OptionRules;
import io.capstan.flink.mysql.convert.SpatialValueForm;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_FETCH_SIZE;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_LOCK_WAIT_BUDGET;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT;

/**
 * How chunks are read; the options are {@link io.capstan.flink.mysql.CapstanMySqlOptions}'s, each
 * value checked by the {@link OptionRules} rule of its option.
 *
 * <ul>
 *   <li>{@code scan.snapshot.fetch.size}: rows per round trip, 0 streams them.
 *   <li>{@code scan.snapshot.lock-wait.timeout}: how long one LOCK TABLES attempt may wait.
 *   <li>{@code scan.snapshot.lock-wait.budget}: total time spent trying to lock one chunk's table.
 *   <li>columns to read (default all): the snapshot SELECT reads only these and each table's chunk
 *       key columns; the other columns are null in snapshot rows. The SQL connector sets them to
 *       the columns a query uses (projection push-down).
 *   <li>the form of spatial values (default standard WKB): the SQL connector asks for MySQL's own
 *       value with its SRID; the binlog reader converts in the same form ({@link
 *       io.capstan.flink.mysql.source.CapstanSourceConfig#spatialForm()}).
 * </ul>
 */
@Internal
public final class SnapshotReadOptions implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final int DEFAULT_FETCH_SIZE = SCAN_SNAPSHOT_FETCH_SIZE.defaultValue();
    public static final Duration DEFAULT_LOCK_WAIT_TIMEOUT =
            SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT.defaultValue();
    public static final Duration DEFAULT_LOCK_WAIT_BUDGET =
            SCAN_SNAPSHOT_LOCK_WAIT_BUDGET.defaultValue();

    private final int fetchSize;
    private final Duration lockWaitTimeout;
    private final Duration lockWaitBudget;
    private final TreeSet<String> columns; // null: every column; names compare case-insensitively
    private final SpatialValueForm spatialForm;

    public SnapshotReadOptions(int fetchSize, Duration lockWaitTimeout, Duration lockWaitBudget) {
        this(fetchSize, lockWaitTimeout, lockWaitBudget, null);
    }

    /**
     * @param columns the columns to read (chunk key columns are added), or null for all
     */
    public SnapshotReadOptions(
            int fetchSize,
            Duration lockWaitTimeout,
            Duration lockWaitBudget,
            Collection<String> columns) {
        this(fetchSize, lockWaitTimeout, lockWaitBudget, columns, SpatialValueForm.WKB);
    }

    private SnapshotReadOptions(
            int fetchSize,
            Duration lockWaitTimeout,
            Duration lockWaitBudget,
            Collection<String> columns,
            SpatialValueForm spatialForm) {
        OptionRules.fetchSize(fetchSize);
        OptionRules.lockWaitTimeout(lockWaitTimeout);
        OptionRules.lockWaitBudget(lockWaitBudget, lockWaitTimeout);
        if (columns != null) {
            OptionRules.snapshotColumns(columns);
        }
        this.fetchSize = fetchSize;
        this.lockWaitTimeout = lockWaitTimeout;
        this.lockWaitBudget = lockWaitBudget;
        this.spatialForm = Objects.requireNonNull(spatialForm, "spatialForm");
        if (columns == null) {
            this.columns = null;
        } else {
            this.columns = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
            this.columns.addAll(columns);
        }
    }

    public static SnapshotReadOptions defaults() {
        return new SnapshotReadOptions(
                DEFAULT_FETCH_SIZE, DEFAULT_LOCK_WAIT_TIMEOUT, DEFAULT_LOCK_WAIT_BUDGET);
    }

    /** These options reading only {@code columns} (chunk key columns are added), or all if null. */
    public SnapshotReadOptions withColumns(Collection<String> columns) {
        return new SnapshotReadOptions(
                fetchSize, lockWaitTimeout, lockWaitBudget, columns, spatialForm);
    }

    /** These options delivering spatial values in {@code form}. */
    public SnapshotReadOptions withSpatialForm(SpatialValueForm form) {
        return new SnapshotReadOptions(fetchSize, lockWaitTimeout, lockWaitBudget, columns, form);
    }

    /** The form spatial values are delivered in. */
    public SpatialValueForm spatialForm() {
        return spatialForm;
    }

    public int fetchSize() {
        return fetchSize;
    }

    public Duration lockWaitTimeout() {
        return lockWaitTimeout;
    }

    /** lock_wait_timeout in whole seconds, rounded up. */
    public long lockWaitTimeoutSeconds() {
        long s = lockWaitTimeout.getSeconds();
        return lockWaitTimeout.getNano() > 0 ? s + 1 : s;
    }

    public Duration lockWaitBudget() {
        return lockWaitBudget;
    }

    /** The columns to read besides the chunk key (case-insensitive), or empty for all columns. */
    public Optional<Set<String>> columns() {
        return columns == null
                ? Optional.empty()
                : Optional.of(Collections.unmodifiableSet(columns));
    }

    /** Equal when every setting is; column names compare case-insensitively. */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SnapshotReadOptions)) {
            return false;
        }
        SnapshotReadOptions that = (SnapshotReadOptions) o;
        return fetchSize == that.fetchSize
                && lockWaitTimeout.equals(that.lockWaitTimeout)
                && lockWaitBudget.equals(that.lockWaitBudget)
                // both sets compare names case-insensitively, so equals does too
                && Objects.equals(columns, that.columns)
                && spatialForm == that.spatialForm;
    }

    @Override
    public int hashCode() {
        // The set's own hash code hashes names case-sensitively; its size agrees with equals.
        return Objects.hash(
                fetchSize,
                lockWaitTimeout,
                lockWaitBudget,
                columns == null ? -1 : columns.size(),
                spatialForm);
    }

    @Override
    public String toString() {
        return "SnapshotReadOptions{fetchSize="
                + fetchSize
                + ", lockWaitTimeout="
                + lockWaitTimeout
                + ", lockWaitBudget="
                + lockWaitBudget
                + (columns == null ? "" : ", columns=" + columns)
                + ", spatialForm="
                + spatialForm
                + "}";
    }
}
