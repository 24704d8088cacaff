package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.source.split.BinlogSplit;

import java.util.Objects;
import java.util.Optional;

/** The binlog split is ready and goes to the next reader that asks. */
record BinlogSplitReady(BinlogSplit split) implements EnumeratorState {

    BinlogSplitReady {
        Objects.requireNonNull(split, "split");
    }

    @Override
    public EnumeratorPhase phase() {
        return EnumeratorPhase.BINLOG_SPLIT_READY;
    }

    @Override
    public Optional<BinlogSplit> pendingBinlogSplit() {
        return Optional.of(split);
    }

    @Override
    public Transition<Optional<SplitReply>> answer(
            int subtask, int parallelism, AssignmentContext ctx) {
        return new Transition<>(
                Streaming.assigned(null, ctx), Optional.of(new SplitReply.Assign(subtask, split)));
    }
}
