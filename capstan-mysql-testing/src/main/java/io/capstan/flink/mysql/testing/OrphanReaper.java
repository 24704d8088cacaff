package io.capstan.flink.mysql.testing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Cleans up after test JVMs that died without running their hooks (kill -9, a crashed fork): each
 * server directory names the JVM that owns it and its socket directory, so the next start can stop
 * the mysqld of a JVM that is gone and delete both directories.
 */
final class OrphanReaper {

    private static final Logger LOG = LoggerFactory.getLogger(OrphanReaper.class);

    /** The file in a server's directory holding its JVM's pid. */
    private static final String OWNER_FILE = "jvm.pid";

    /** The file in a server's directory naming its socket directory. */
    private static final String SOCKET_DIR_FILE = "socket.dir";

    private OrphanReaper() {}

    /** Records in a new server's directory which JVM owns it and where its socket directory is. */
    static void markOwner(Path serverDir, long jvmPid, Path socketDir) throws IOException {
        Files.writeString(
                serverDir.resolve(OWNER_FILE), Long.toString(jvmPid), StandardCharsets.US_ASCII);
        // so that reap can delete the socket directory of a JVM killed before its hooks ran
        Files.writeString(
                serverDir.resolve(SOCKET_DIR_FILE), socketDir.toString(), StandardCharsets.UTF_8);
    }

    /** Kills mysqld processes of test JVMs that are gone and deletes their directories. */
    static void reap(Path serversRoot) {
        if (!Files.isDirectory(serversRoot)) {
            return;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(serversRoot)) {
            for (Path d : dirs) {
                Optional<Long> owner = readPid(d.resolve(OWNER_FILE));
                if (owner.isEmpty() || isAlive(owner.get())) {
                    continue;
                }
                readPid(d.resolve("data/mysqld.pid"))
                        .or(() -> readPid(d.resolve("mysqld.pid")))
                        .flatMap(ProcessHandle::of)
                        .filter(
                                p ->
                                        p.info()
                                                .command()
                                                .map(c -> c.endsWith("mysqld"))
                                                .orElse(false))
                        .ifPresent(
                                p -> {
                                    LOG.info(
                                            "Stopping orphaned mysqld pid {} of a finished test JVM",
                                            p.pid());
                                    p.destroyForcibly();
                                    try {
                                        p.onExit().get(10, TimeUnit.SECONDS);
                                    } catch (Exception ignored) {
                                        // best effort
                                    }
                                });
                readSocketDir(d).ifPresent(Files2::deleteRecursively);
                Files2.deleteRecursively(d);
            }
        } catch (IOException e) {
            LOG.warn("Could not scan {} for orphaned servers", serversRoot, e);
        }
    }

    private static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static Optional<Long> readPid(Path file) {
        try {
            return Optional.of(
                    Long.parseLong(Files.readString(file, StandardCharsets.US_ASCII).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The socket directory a (possibly dead) server's directory names; only a capstan-* one under
     * /tmp.
     */
    private static Optional<Path> readSocketDir(Path serverDir) {
        try {
            Path p =
                    Paths.get(
                            Files.readString(
                                            serverDir.resolve(SOCKET_DIR_FILE),
                                            StandardCharsets.UTF_8)
                                    .trim());
            return p.getFileName() != null && p.getFileName().toString().startsWith("capstan-")
                    ? Optional.of(p)
                    : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
