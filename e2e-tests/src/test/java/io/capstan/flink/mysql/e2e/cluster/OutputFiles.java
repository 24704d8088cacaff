package io.capstan.flink.mysql.e2e.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads what a file sink has committed: the lines of every file under a directory except the hidden
 * ones (in-progress and pending part files start with a dot), i.e. what a downstream reader of an
 * exactly-once file sink may see.
 */
public final class OutputFiles {
    private OutputFiles() {}

    public static List<String> committedLines(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        // The running sink renames hidden part files while a walk lists them (a checkpoint commits
        // in-progress files); committed files never vanish, so a fresh walk sees a settled listing.
        for (int attempt = 1; ; attempt++) {
            try {
                return readVisibleFiles(dir);
            } catch (IOException e) {
                if (!(e instanceof NoSuchFileException) || attempt == 10) {
                    throw new UncheckedIOException(e);
                }
            } catch (UncheckedIOException e) {
                if (!(e.getCause() instanceof NoSuchFileException) || attempt == 10) {
                    throw e;
                }
            }
        }
    }

    private static List<String> readVisibleFiles(Path dir) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                if (!isHidden(dir, file)) {
                    lines.addAll(Files.readAllLines(file));
                }
            }
        }
        return lines;
    }

    private static boolean isHidden(Path root, Path file) {
        for (Path part : root.relativize(file)) {
            String name = part.toString();
            if (name.startsWith(".") || name.startsWith("_")) {
                return true;
            }
        }
        return false;
    }
}
