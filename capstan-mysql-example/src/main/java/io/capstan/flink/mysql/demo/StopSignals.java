package io.capstan.flink.mysql.demo;

import sun.misc.Signal;

/** Routes SIGINT and SIGTERM to an orderly stop instead of an immediate JVM shutdown. */
final class StopSignals {

    private StopSignals() {}

    static void install(Runnable onStop) {
        for (String name : new String[] {"INT", "TERM"}) {
            try {
                Signal.handle(new Signal(name), s -> onStop.run());
            } catch (IllegalArgumentException e) {
                // the signal is not available here: the JVM's shutdown hooks still stop the demo
            }
        }
    }
}
