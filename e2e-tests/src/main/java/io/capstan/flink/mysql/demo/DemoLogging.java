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

    static Path toFile(Path workDir) {
        Path log = workDir.resolve("demo.log");
        Path config = workDir.resolve("log4j2-demo.properties");
        String text = String.join("\n",
                "status = warn",
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
        System.setProperty("log4j2.configurationFile", config.toString());
        System.setProperty("log4j.configurationFile", config.toString());
        return log;
    }
}
