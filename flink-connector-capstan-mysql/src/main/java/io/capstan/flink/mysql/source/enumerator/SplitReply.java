package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.source.split.CapstanSplit;

/** The answer to a reader's split request: a split, or "no more splits". */
sealed interface SplitReply {

    int subtask();

    /** Give {@code split} to the reader. */
    record Assign(int subtask, CapstanSplit split) implements SplitReply {}

    /** Tell the reader no split will ever come. */
    record NoMoreSplits(int subtask) implements SplitReply {}
}
