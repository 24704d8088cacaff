package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.schema.TableId;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Snapshot modes: the tables, their chunk keys and schema fingerprints are being resolved. */
record ResolvingTables() implements EnumeratorState {

    @Override
    public EnumeratorPhase phase() {
        return EnumeratorPhase.RESOLVING_TABLES;
    }

    @Override
    public Transition<Optional<SplitReply>> answer(
            int subtask, int parallelism, AssignmentContext ctx) {
        return Transition.stay(this, Optional.empty());
    }

    @Override
    public EnumeratorState tablesResolved(List<SnapshotTable> tables, AssignmentContext ctx) {
        List<TableId> ids = new ArrayList<>();
        tables.forEach(t -> ids.add(t.key().table()));
        ctx.captureOnly(ids);
        return new Snapshotting(new SnapshotBook(tables), ctx.afterSnapshot());
    }
}
