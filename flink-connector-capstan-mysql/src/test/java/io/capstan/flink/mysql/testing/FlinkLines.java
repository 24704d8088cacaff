package io.capstan.flink.mysql.testing;

/**
 * JUnit tags that say on which Flink line a test runs. Every test runs on the 2.x line; the 1.20
 * line's build selects by these tags instead of by file name.
 */
public final class FlinkLines {

    /**
     * A unit test that cannot tell one Flink line from the other (pure MySQL text and encodings,
     * sizes, the source tree's own structure, package purity, docs): the 1.20 line skips it.
     */
    public static final String NEUTRAL = "flink-line-neutral";

    /**
     * An integration test that runs on every Flink line: it drives the line's own reader,
     * enumerator, checkpoints or checkpoint settings. The 1.20 line runs only these ITs.
     */
    public static final String EVERY_LINE = "every-flink-line";

    private FlinkLines() {}
}
