package io.capstan.flink.mysql.e2e.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the Maven build leaves for the real-cluster ITs: the Flink cluster classpath
 * (target/flink-cluster.classpath, e2e-tests' provided-scope dependencies), the job jar
 * (../e2e-jobs/target/e2e-jobs.jar, built by the e2e-jobs module) and a work directory. Failsafe
 * passes the paths as system properties; the defaults are the same paths relative to the module
 * directory.
 */
public final class E2eBuild {
    private E2eBuild() {}

    public static Path clusterClasspathFile() {
        return path("capstan.e2e.cluster.classpath", "target/flink-cluster.classpath");
    }

    public static Path jobsJar() {
        Path jar = path("capstan.e2e.jobs.jar", "../e2e-jobs/target/e2e-jobs.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    "The e2e job jar "
                            + jar
                            + " is missing: build the e2e-jobs module to the package"
                            + " phase (mvn -pl e2e-tests -am verify) so that failsafe finds it");
        }
        return jar;
    }

    public static Path workDir() {
        return path("capstan.e2e.work.dir", "target/e2e-work");
    }

    /** The jars of the Flink cluster, in Maven's order. */
    public static List<Path> clusterClasspath() {
        Path file = clusterClasspathFile();
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(
                    "The Flink cluster classpath "
                            + file
                            + " is missing: it is written by the"
                            + " dependency plugin in the generate-test-resources phase of e2e-tests");
        }
        try {
            List<Path> jars = new ArrayList<>();
            for (String entry : Files.readString(file).trim().split(java.io.File.pathSeparator)) {
                if (!entry.isBlank()) {
                    jars.add(Path.of(entry));
                }
            }
            return jars;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path path(String property, String defaultRelative) {
        String value = System.getProperty(property);
        return (value == null ? Path.of(defaultRelative) : Path.of(value)).toAbsolutePath();
    }
}
