package io.capstan.flink.mysql.e2e.cluster;

import io.capstan.flink.mysql.testing.FlinkLines;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cluster classpath is what a Flink distribution would hold and nothing of ours: no connector
 * classes or drivers (the e2e tests must load those from the jar under test), no test libraries;
 * and the libraries that a compile dependency shares with Flink have not been lost to Maven's scope
 * mediation (see the e2e-tests pom).
 */
@Tag(FlinkLines.NEUTRAL)
class ClusterClasspathTest {

    @Test
    void holdsFlinkAndNothingOfOurs() {
        List<String> jars =
                E2eBuild.clusterClasspath().stream()
                        .map(Path::getFileName)
                        .map(Path::toString)
                        .toList();
        assertThat(jars)
                .anyMatch(jar -> jar.startsWith("flink-runtime-2"))
                .anyMatch(jar -> jar.startsWith("flink-runtime-web-"))
                .anyMatch(jar -> jar.startsWith("flink-clients-"))
                .anyMatch(jar -> jar.startsWith("flink-sql-gateway-"))
                .anyMatch(jar -> jar.startsWith("flink-table-planner-loader-"))
                .anyMatch(jar -> jar.startsWith("log4j-core-"))
                .anyMatch(jar -> jar.startsWith("log4j-slf4j-impl-"))
                .anyMatch(jar -> jar.startsWith("slf4j-api-"))
                .anyMatch(jar -> jar.startsWith("commons-math3-"));
        assertThat(jars)
                .noneMatch(jar -> jar.startsWith("flink-connector-capstan-mysql"))
                .noneMatch(jar -> jar.startsWith("flink-sql-connector-capstan-mysql"))
                .noneMatch(jar -> jar.startsWith("e2e-tests"))
                .noneMatch(jar -> jar.startsWith("e2e-jobs"))
                .noneMatch(jar -> jar.startsWith("capstan-mysql-"))
                .noneMatch(jar -> jar.startsWith("mysql-"))
                .noneMatch(jar -> jar.startsWith("protobuf-"))
                .noneMatch(jar -> jar.startsWith("junit-"))
                .noneMatch(jar -> jar.startsWith("assertj-"))
                .noneMatch(jar -> jar.startsWith("jmh-"));
    }
}
