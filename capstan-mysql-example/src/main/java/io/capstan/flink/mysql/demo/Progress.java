package io.capstan.flink.mysql.demo;

import java.io.PrintStream;

/** Start-up progress lines on the terminal, so the user always sees what the demo is doing. */
final class Progress {

    private final PrintStream out;
    private final long startNanos = System.nanoTime();
    private long stepNanos = startNanos;

    Progress(PrintStream out) {
        this.out = out;
    }

    void step(String what) {
        stepNanos = System.nanoTime();
        out.printf("[%5.1fs] %s ...%n", seconds(startNanos), what);
        out.flush();
    }

    void done(String result) {
        out.printf("[%5.1fs]     %s (%.1f s)%n", seconds(startNanos), result, seconds(stepNanos));
        out.flush();
    }

    void note(String line) {
        out.printf("[%5.1fs] %s%n", seconds(startNanos), line);
        out.flush();
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
