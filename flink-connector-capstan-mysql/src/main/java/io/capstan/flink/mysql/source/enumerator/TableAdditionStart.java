package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The handshake rules that start or continue adding tables (docs/adr/0009): a restore in the middle
 * of an addition continues it, unless the split already holds the added tables (the resume reached
 * the reader's checkpoint); a table list changed again meanwhile halts.
 */
final class TableAdditionStart {

    private static final Logger LOG = LoggerFactory.getLogger(TableAdditionStart.class);

    private TableAdditionStart() {}

    static Set<TableId> idsOf(List<SnapshotTable> tables) {
        Set<TableId> ids = new TreeSet<>();
        tables.forEach(t -> ids.add(t.key().table()));
        return ids;
    }

    /**
     * The handshake while {@code book} holds the chunks of an addition.
     *
     * @param held the state when the split already holds the book's tables
     * @throws CapstanHaltException {@code table_list_changed} when the configured list now adds
     *     other tables than the addition did
     */
    static Transition<HandshakeAnswer> withBook(
            SnapshotBook book,
            Supplier<EnumeratorState> held,
            int subtask,
            List<TableId> inSplit,
            Set<TableId> removed,
            Set<TableId> addedIds,
            int parallelism,
            AssignmentContext ctx) {
        Set<TableId> inBook = new TreeSet<>();
        book.keys().forEach(k -> inBook.add(k.table()));
        if (Set.copyOf(inSplit).containsAll(inBook)) {
            EnumeratorState next = held.get();
            ctx.capture(inBook);
            return new Transition<>(next, new HandshakeAnswer.Resume(removed));
        }
        if (!inBook.equals(addedIds)) {
            throw new CapstanHaltException(
                    HaltReason.TABLE_LIST_CHANGED,
                    "the configured table list changed again while "
                            + inBook.size()
                            + " table(s) were being added to the restored job (now adds "
                            + addedIds
                            + ", was adding "
                            + inBook
                            + "). Remedy: restore with the table list of the addition, let it"
                            + " finish, then change the list.");
        }
        return new Transition<>(
                start(subtask, List.copyOf(inBook), book, parallelism, ctx),
                new HandshakeAnswer.Pause(removed));
    }

    /** The holder's split pauses while {@code tables}' chunks in {@code book} are read. */
    static AddingTables start(
            int holder,
            List<TableId> tables,
            SnapshotBook book,
            int parallelism,
            AssignmentContext ctx) {
        // The resume is a handoff like the first one: unaligned checkpoints cannot carry it.
        ctx.handoffAhead(parallelism);
        LOG.info(
                "Adding {} table(s): the binlog split pauses at a transaction boundary while they"
                        + " are snapshotted",
                tables.size());
        return new AddingTables(book, new TableAddition(holder, tables), false);
    }
}
