package io.capstan.flink.mysql.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Checks that the shared libraries the embedded mysqld links against are installed. */
final class NativeLibraryCheck {

    static final String MISSING_MESSAGE =
            "MySQL test server needs Debian packages libaio1 and libnuma1: "
                    + "apt-get install -y libaio1 libnuma1";

    static final List<String> REQUIRED = List.of("libaio.so.1", "libnuma.so.1");

    private static final List<String> SYSTEM_DIRS =
            List.of(
                    "/lib/x86_64-linux-gnu",
                    "/usr/lib/x86_64-linux-gnu",
                    "/lib64",
                    "/usr/lib64",
                    "/lib",
                    "/usr/lib",
                    "/usr/local/lib");

    private NativeLibraryCheck() {}

    /** Throws one clear line naming the packages when a required library is missing. */
    static void requireInstalled() {
        missingMessage(defaultSearchPath())
                .ifPresent(
                        m -> {
                            throw new IllegalStateException(m);
                        });
    }

    /** The message to fail with when a required library is in none of the directories. */
    static Optional<String> missingMessage(List<Path> searchPath) {
        for (String library : REQUIRED) {
            boolean found = searchPath.stream().anyMatch(dir -> Files.exists(dir.resolve(library)));
            if (!found) {
                return Optional.of(MISSING_MESSAGE);
            }
        }
        return Optional.empty();
    }

    /** True when mysqld's output says the dynamic loader did not find a library. */
    static boolean isLoaderFailure(String mysqldOutput) {
        return mysqldOutput.contains("error while loading shared libraries");
    }

    static List<Path> defaultSearchPath() {
        List<Path> dirs = new ArrayList<>();
        String ld = System.getenv("LD_LIBRARY_PATH");
        if (ld != null) {
            for (String d : ld.split(File.pathSeparator)) {
                if (!d.isBlank()) {
                    dirs.add(Paths.get(d));
                }
            }
        }
        SYSTEM_DIRS.forEach(d -> dirs.add(Paths.get(d)));
        return dirs;
    }
}
