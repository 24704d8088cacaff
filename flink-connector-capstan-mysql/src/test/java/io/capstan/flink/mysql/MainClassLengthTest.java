package io.capstan.flink.mysql;

import io.capstan.flink.mysql.testing.FlinkLines;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One job per class: no main source file of any module is over {@value #MAX_LINES} lines (as
 * formatted by the build). There is no exemption: a class that grows past it is split by job.
 */
@Tag(FlinkLines.NEUTRAL)
class MainClassLengthTest {

    static final int MAX_LINES = 400;

    @Test
    void noMainClassIsLongerThan400Lines() throws IOException {
        assertThat(tooLong(repositoryRoot()))
                .as("main classes over %d lines: split them by job", MAX_LINES)
                .isEmpty();
    }

    @Test
    void theCheckSeesTheModules() throws IOException {
        assertThat(mainSources(repositoryRoot()))
                .as("main sources found from the module directory")
                .anyMatch(p -> p.endsWith(Path.of("io/capstan/flink/mysql/gtid/GtidSet.java")));
    }

    static List<String> tooLong(Path root) throws IOException {
        List<Path> sources = mainSources(root);
        return sources.stream()
                .filter(p -> lines(p).size() > MAX_LINES)
                .map(p -> root.relativize(p) + " (" + lines(p).size() + " lines)")
                .sorted()
                .collect(Collectors.toList());
    }

    private static List<String> lines(Path source) {
        try {
            return Files.readAllLines(source, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + source, e);
        }
    }

    /**
     * Every module's {@code src/main} tree (the Flink-line and benchmark source folders beside
     * {@code java} too); tests and generated sources are not counted.
     */
    private static List<Path> mainSources(Path root) throws IOException {
        List<Path> mainDirs;
        try (Stream<Path> modules = Files.list(root)) {
            mainDirs =
                    modules.map(m -> m.resolve("src/main"))
                            .filter(Files::isDirectory)
                            .collect(Collectors.toList());
        }
        List<Path> sources = new ArrayList<>();
        for (Path dir : mainDirs) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.filter(p -> p.toString().endsWith(".java")).forEach(sources::add);
            }
        }
        return sources;
    }

    /** The module's tests run with the module as working directory; the modules are beside it. */
    private static Path repositoryRoot() {
        Path parent = Path.of("..").toAbsolutePath().normalize();
        return Files.exists(parent.resolve("flink-connector-capstan-mysql"))
                ? parent
                : Path.of("").toAbsolutePath();
    }
}
