package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.source.split.BinlogSplit;

import javax.annotation.Nullable;

import java.util.Optional;

/**
 * Stream-only modes: the binlog split is being planned (a new job, {@code toVerify} null) or the
 * preflight of a split restored before it went out runs again, off the coordinator thread.
 */
record PreparingBinlogSplit(@Nullable BinlogSplit toVerify) implements EnumeratorState {

    @Override
    public EnumeratorPhase phase() {
        return EnumeratorPhase.PREPARING_BINLOG_SPLIT;
    }

    @Override
    public Optional<BinlogSplit> pendingBinlogSplit() {
        return Optional.ofNullable(toVerify);
    }

    @Override
    public Transition<Optional<SplitReply>> answer(
            int subtask, int parallelism, AssignmentContext ctx) {
        return Transition.stay(this, Optional.empty());
    }

    @Override
    public EnumeratorState binlogSplitPrepared(BinlogSplit split, AssignmentContext ctx) {
        ctx.captureOnly(split.tables());
        return new BinlogSplitReady(split);
    }
}
