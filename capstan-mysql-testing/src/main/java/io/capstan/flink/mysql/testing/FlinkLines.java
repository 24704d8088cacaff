package io.capstan.flink.mysql.testing;

/**
 * JUnit tags that say on which Flink line a test runs. Every test runs on the 2.x line; a build of
 * the 1.20 line ({@code -Dflink.line=1.20}) runs the unit tests not tagged {@link #NEUTRAL} and the
 * integration tests tagged {@link #EVERY_LINE} but not {@link #TWO_ONLY} (the root pom's {@code
 * flink.line.*} properties).
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

    /**
     * A case of an {@link #EVERY_LINE} test that asserts what only the 2.x line does (a planner's
     * behaviour that 1.20 lacks), so the 1.20 line leaves it out.
     */
    public static final String TWO_ONLY = "flink-2-only";

    private FlinkLines() {}
}
