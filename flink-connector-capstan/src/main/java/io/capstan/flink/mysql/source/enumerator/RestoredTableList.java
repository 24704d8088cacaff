package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether a restored job's configured table list still selects the tables its state captures. A
 * table added to the list (or newly created and matching a pattern) would never be snapshotted, and
 * a table left out would go on being gated and streamed: neither may pass silently while adding
 * tables is not supported. Tables of the state that no longer exist on the server are not a change
 * of the list (a dropped table) and are not reported. Pure.
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
        Set<TableId> added = new TreeSet<>(selectedNow);
        added.removeAll(inState);
        Set<TableId> removed = new TreeSet<>(inState);
        removed.removeAll(selectedNow);
        removed.retainAll(Set.copyOf(onServer));
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
                        + ". Adding or removing tables of a restored job is not supported yet"
                        + " (scan.newly-added-table.enabled is not available). Remedy: restore"
                        + " with the table list the job was started with, or start the job without"
                        + " state (a new snapshot) to capture the new list.");
    }

    private static String describe(String what, Set<TableId> tables) {
        if (tables.isEmpty()) {
            return "";
        }
        List<String> names = tables.stream().map(TableId::toString).toList();
        return what + " " + String.join(", ", names);
    }
}
