package io.capstan.flink.mysql.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Sends every log line (Flink's, the connector's, the harness's) to a file, so the terminal shows
 * only the demo's screen. Must run before the first logger is created.
 */
final class DemoLogging {

    private DemoLogging() {}

    /** The binlog client logs through java.util.logging, whose default handler is the console. */
    private static void routeJavaUtilLogging(Path file) {
        java.util.logging.LogManager.getLogManager().reset();
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        try {
            java.util.logging.FileHandler handler =
                    new java.util.logging.FileHandler(file.toString());
            handler.setFormatter(new java.util.logging.SimpleFormatter());
            root.addHandler(handler);
        } catch (IOException e) {
            root.setLevel(java.util.logging.Level.OFF);
        }
    }

    static Path toFile(Path workDir) {
        Path log = workDir.resolve("demo.log");
        Path config = workDir.resolve("log4j2-demo.properties");
        String text =
                String.join(
                        "\n",
                        "status = off",
                        "appender.file.type = File",
                        "appender.file.name = file",
                        "appender.file.fileName = " + log.toString().replace("\\", "/"),
                        "appender.file.append = false",
                        "appender.file.layout.type = PatternLayout",
                        "appender.file.layout.pattern = %d{HH:mm:ss.SSS} %-5p [%t] %c{1} - %m%n",
                        "rootLogger.level = INFO",
                        "rootLogger.appenderRef.file.ref = file",
                        // Flink's planner and runtime are chatty at INFO; keep the file readable
                        "logger.flink.name = org.apache.flink",
                        "logger.flink.level = WARN",
                        "");
        try {
            Files.createDirectories(workDir);
            Files.writeString(config, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the log configuration into " + workDir, e);
        }
        routeJavaUtilLogging(workDir.resolve("demo-jul.log"));
        System.setProperty("log4j2.configurationFile", config.toString());
        // Log4j's own status messages (e.g. about loggers created while the JVM shuts down) go to
        // the terminal otherwise
        System.setProperty("log4j2.statusLoggerLevel", "OFF");
        System.setProperty("log4j2.StatusLogger.level", "OFF");
        System.setProperty("log4j.configurationFile", config.toString());
        return log;
    }
}
