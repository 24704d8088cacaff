package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.schema.TableId;

import java.util.HashSet;
import java.util.Set;

/**
 * Whether a DROP TABLE of a captured table may pass in a stream-only job: when no row of the
 * dropped incarnation was ever emitted, downstream holds nothing of it, so dropping it leaves
 * downstream equal to MySQL, and a table re-created under the same name is streamed from its CREATE
 * on (its rows come after the CREATE in the binlog). Once a row of it was emitted, downstream holds
 * rows MySQL no longer has and the binlog logs no row events for a DROP: the drop halts ({@code
 * captured_table_removed}).
 *
 * <p>"No row emitted" is known only for an incarnation whose CREATE this stream passed since it
 * (re)started, with no captured row of it since: every row of an incarnation comes after its
 * CREATE, and each one this stream passes counts (also one skipped as emitted before a resume). A
 * table that existed where this stream (re)started — the start of the binlog read, or a checkpoint
 * — may have had rows emitted before: its drop halts. A job with a snapshot never passes a drop
 * here (its chunks hold the table's rows). Single-threaded: the binlog reader thread.
 */
final class DropBeforeRows {

    private boolean streamOnly;
    private final Set<TableId> createdWithoutRows = new HashSet<>();

    /** The stream began without a snapshot: drops of tables without emitted rows may pass. */
    void streamOnly() {
        streamOnly = true;
    }

    /** A plain CREATE TABLE of captured {@code table} (not IF NOT EXISTS, not TEMPORARY). */
    void created(TableId table) {
        if (streamOnly) {
            createdWithoutRows.add(table);
        }
    }

    /** A captured row of {@code table} passed (emitted, held, or skipped as emitted before). */
    void rowPassed(TableId table) {
        if (!createdWithoutRows.isEmpty()) {
            createdWithoutRows.remove(table);
        }
    }

    /** Whether a DROP of {@code table} passes; it then no longer exists. */
    boolean dropPasses(TableId table) {
        return createdWithoutRows.remove(table);
    }
}
