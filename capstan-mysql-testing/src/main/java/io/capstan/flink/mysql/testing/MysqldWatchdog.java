package io.capstan.flink.mysql.testing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/** A shell loop that stops mysqld when the test JVM disappears without running its hooks. */
final class MysqldWatchdog {

    private static final Logger LOG = LoggerFactory.getLogger(MysqldWatchdog.class);

    private MysqldWatchdog() {}

    /**
     * Starts the loop for one mysqld; null when it could not be started (the server runs anyway).
     */
    static Process start(long jvmPid, long mysqld) {
        String script =
                "while kill -0 "
                        + jvmPid
                        + " 2>/dev/null && kill -0 "
                        + mysqld
                        + " 2>/dev/null;"
                        + " do sleep 1; done;"
                        + " kill -TERM "
                        + mysqld
                        + " 2>/dev/null; i=0;"
                        + " while kill -0 "
                        + mysqld
                        + " 2>/dev/null && [ $i -lt 20 ]; do sleep 1; i=$((i+1)); done;"
                        + " kill -KILL "
                        + mysqld
                        + " 2>/dev/null";
        try {
            return new ProcessBuilder("/bin/sh", "-c", script)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            LOG.warn(
                    "Could not start the mysqld watchdog; a killed test JVM may leave mysqld running",
                    e);
            return null;
        }
    }
}
