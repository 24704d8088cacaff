package io.capstan.flink.mysql.e2e.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes the conf directory of a cluster: {@code config.yaml} (Flink 2.x reads only this file; flat
 * keys, every value a quoted YAML string, which Flink converts like any other string) and {@code
 * log4j.properties} (a file appender on {@code ${sys:log.file}}, as flink-dist's).
 */
final class ClusterConfigFiles {
    private ClusterConfigFiles() {}

    static void write(Path confDir, Map<String, String> settings) {
        StringBuilder yaml = new StringBuilder("# Written by FlinkStandaloneCluster\n");
        settings.forEach(
                (key, value) ->
                        yaml.append(key)
                                .append(": '")
                                .append(value.replace("'", "''"))
                                .append("'\n"));
        try {
            Files.createDirectories(confDir);
            Files.writeString(confDir.resolve("config.yaml"), yaml);
            Files.writeString(confDir.resolve("log4j.properties"), LOG4J);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final String LOG4J =
            String.join(
                    "\n",
                    "monitorInterval = 0",
                    "rootLogger.level = INFO",
                    "rootLogger.appenderRef.file.ref = MainAppender",
                    "logger.pekko.name = org.apache.pekko",
                    "logger.pekko.level = WARN",
                    "logger.netty.name = org.apache.flink.shaded.netty4",
                    "logger.netty.level = WARN",
                    "logger.zookeeper.name = org.apache.zookeeper",
                    "logger.zookeeper.level = WARN",
                    "logger.hadoop.name = org.apache.hadoop",
                    "logger.hadoop.level = WARN",
                    "appender.main.name = MainAppender",
                    "appender.main.type = File",
                    "appender.main.append = true",
                    "appender.main.fileName = ${sys:log.file}",
                    "appender.main.layout.type = PatternLayout",
                    "appender.main.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-50c{1.} [%t] - %m%n",
                    "");
}
