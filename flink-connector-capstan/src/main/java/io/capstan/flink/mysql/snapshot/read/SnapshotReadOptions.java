package io.capstan.flink.mysql.snapshot.read;

import java.io.Serializable;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * How chunks are read; defaults and option names as in docs/snapshot.md.
 *
 * <ul>
 *   <li>{@code scan.snapshot.fetch.size} (default 0): 0 streams rows one by one from the server
 *       (fastest); a positive value fetches that many rows per round trip through a server
 *       cursor.
 *   <li>{@code scan.snapshot.lock-wait.timeout} (default 1 s, whole seconds, at least 1): how long
 *       one LOCK TABLES attempt may wait; writers queue behind a waiting lock, so keep it short.
 *   <li>{@code scan.snapshot.lock-wait.budget} (default 60 s): total time spent trying to lock one
 *       chunk's table before the job halts with {@code lock_wait_budget_exhausted}.
 *   <li>columns to read (default all): the snapshot SELECT reads only these and each table's
 *       chunk key columns; the other columns are null in snapshot rows. The SQL connector sets
 *       them to the columns a query uses (projection push-down).
 * </ul>
 */
public final class SnapshotReadOptions implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final int DEFAULT_FETCH_SIZE = 0;
    public static final Duration DEFAULT_LOCK_WAIT_TIMEOUT = Duration.ofSeconds(1);
    public static final Duration DEFAULT_LOCK_WAIT_BUDGET = Duration.ofSeconds(60);

    private final int fetchSize;
    private final Duration lockWaitTimeout;
    private final Duration lockWaitBudget;
    private final TreeSet<String> columns; // null: every column; names compare case-insensitively

    public SnapshotReadOptions(int fetchSize, Duration lockWaitTimeout, Duration lockWaitBudget) {
        this(fetchSize, lockWaitTimeout, lockWaitBudget, null);
    }

    /** @param columns the columns to read (chunk key columns are added), or null for all */
    public SnapshotReadOptions(
            int fetchSize, Duration lockWaitTimeout, Duration lockWaitBudget, Collection<String> columns) {
        if (fetchSize < 0) {
            throw new IllegalArgumentException("scan.snapshot.fetch.size must be >= 0");
        }
        if (lockWaitTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException(
                    "scan.snapshot.lock-wait.timeout must be at least 1 s (MySQL's"
                            + " lock_wait_timeout counts whole seconds)");
        }
        if (lockWaitBudget.compareTo(lockWaitTimeout) < 0) {
            throw new IllegalArgumentException(
                    "scan.snapshot.lock-wait.budget must be at least scan.snapshot.lock-wait.timeout");
        }
        this.fetchSize = fetchSize;
        this.lockWaitTimeout = lockWaitTimeout;
        this.lockWaitBudget = lockWaitBudget;
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
        return columns == null ? Optional.empty() : Optional.of(Collections.unmodifiableSet(columns));
    }

    @Override
    public String toString() {
        return "SnapshotReadOptions{fetchSize=" + fetchSize + ", lockWaitTimeout=" + lockWaitTimeout
                + ", lockWaitBudget=" + lockWaitBudget
                + (columns == null ? "" : ", columns=" + columns) + "}";
    }
}
