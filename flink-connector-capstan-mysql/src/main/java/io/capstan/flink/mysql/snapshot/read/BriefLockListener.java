package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.schema.TableId;

/**
 * Sees the steps of the brief lock as they happen, on the reader's thread, each time a chunk tries
 * to open its read view. The reader uses {@link #NONE}. Tests use it to act at exact points of the
 * protocol: to queue a DDL while A holds the lock, or to read the position outside the lock and
 * show that the exactness test notices.
 */
interface BriefLockListener {

    BriefLockListener NONE = new BriefLockListener() {};

    /** Before A's {@code LOCK TABLES}. */
    default void beforeLock(TableId table) {}

    /** A holds the table lock; B's statements are not sent yet. */
    default void whileLocked(TableId table) {}

    /** A released the lock with the read view open at its position; the rows are not read yet. */
    default void afterUnlock(TableId table) {}
}
