package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.apache.flink.annotation.Internal;

/**
 * Plans the binlog split of a new job and checks the server before anything is read. Does I/O: the
 * enumerator calls it off the coordinator thread.
 */
@Internal
public interface BinlogSplitPlanner {

    /**
     * Resolves the captured tables, runs the preflight and resolves the start position.
     *
     * @throws Exception a {@code CapstanHaltException} naming what is wrong and its remedy
     */
    BinlogSplit planNewSplit() throws Exception;

    /** Re-runs the preflight for a split planned before a restore, before it is handed out. */
    void verifyBeforeAssigning(BinlogSplit split) throws Exception;
}
