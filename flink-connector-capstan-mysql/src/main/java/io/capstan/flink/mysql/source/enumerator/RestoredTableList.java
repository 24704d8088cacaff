package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether a restored job's configured table list still selects the tables its state captures. A
 * table added to the list (or newly created and matching a pattern) would never be snapshotted, and
 * a table left out would go on being gated and streamed: neither may pass silently. Tables of the
 * state that no longer exist on the server are not a change of the list (a dropped table) and are
 * not reported. A streaming job's binlog split is checked by its reader's handshake ({@link
 * #removedFromSplit}): tables removed from the list are dropped from the split; before the handoff
 * any change halts ({@link #check}). Pure.
 */
@Internal
public final class RestoredTableList {

    private RestoredTableList() {}

    /**
     * @param inState the tables the restored state captures
     * @param selectedNow the tables the configured list selects on the server now
     * @param onServer every base table on the server now
     * @throws CapstanHaltException {@code table_list_changed}, naming the tables added and removed
     */
    public static void check(
            Collection<TableId> inState,
            Collection<TableId> selectedNow,
            Collection<TableId> onServer) {
        Set<TableId> added = added(inState, selectedNow);
        Set<TableId> removed = removed(inState, selectedNow, onServer);
        if (added.isEmpty() && removed.isEmpty()) {
            return;
        }
        throw new CapstanHaltException(
                HaltReason.TABLE_LIST_CHANGED,
                "the configured table list no longer selects the tables of the restored job's"
                        + " state ("
                        + inState.size()
                        + " table(s)): "
                        + describe("added", added)
                        + (added.isEmpty() || removed.isEmpty() ? "" : "; ")
                        + describe("removed", removed)
                        + ". Before its snapshot has handed over to the binlog, a restored job"
                        + " cannot change its tables. Remedy: restore with the table list the job"
                        + " was started with, or start the job without state (a new snapshot) to"
                        + " capture the new list.");
    }

    /**
     * How a streaming job's binlog split restored with {@code inSplit} differs from what the list
     * selects now: the tables to add (selected, not captured) and to drop (captured, no longer
     * selected, still on the server: a table dropped from the server is not a change of the list
     * and stays, harmlessly).
     *
     * <p>Without {@code scan.newly-added-table.enabled} a selected table the split lacks is not
     * refused here: it may have been created after the split's position (a new shard, while the job
     * was down), and then the stream captures it from its CREATE. The stream awaits every such
     * table and halts {@code table_entered_selection}, naming it and the option, once it has passed
     * the server's position of now without its CREATE (a table added to the list).
     *
     * @param addingEnabled {@code scan.newly-added-table.enabled}: added tables are snapshotted;
     *     else they are left to the stream
     */
    public static SplitTableChange splitChange(
            Collection<TableId> inSplit,
            Collection<TableId> selectedNow,
            Collection<TableId> onServer,
            boolean addingEnabled) {
        Set<TableId> added = addingEnabled ? added(inSplit, selectedNow) : Set.of();
        return new SplitTableChange(added, removed(inSplit, selectedNow, onServer));
    }

    /**
     * @param added tables to snapshot and add to the binlog split
     * @param removed tables to drop from the binlog split
     */
    public record SplitTableChange(Set<TableId> added, Set<TableId> removed) {
        public SplitTableChange {
            added = Collections.unmodifiableSet(new TreeSet<>(added));
            removed = Collections.unmodifiableSet(new TreeSet<>(removed));
        }
    }

    private static Set<TableId> added(
            Collection<TableId> captured, Collection<TableId> selectedNow) {
        Set<TableId> added = new TreeSet<>(selectedNow);
        added.removeAll(captured);
        return added;
    }

    private static Set<TableId> removed(
            Collection<TableId> captured,
            Collection<TableId> selectedNow,
            Collection<TableId> onServer) {
        Set<TableId> removed = new TreeSet<>(captured);
        removed.removeAll(selectedNow);
        removed.retainAll(Set.copyOf(onServer));
        return removed;
    }

    private static String describe(String what, Set<TableId> tables) {
        if (tables.isEmpty()) {
            return "";
        }
        List<String> names = tables.stream().map(TableId::toString).toList();
        return what + " " + String.join(", ", names);
    }
}
