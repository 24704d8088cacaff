package io.capstan.flink.mysql.testing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Cleans up after test JVMs that died without running their hooks (kill -9, a crashed fork): each
 * server directory names the JVM that owns it and its socket directory, so the next start can stop
 * the server process ({@code mysqld}, or the {@code mariadbd} of the connector's MariaDB preflight
 * test) of a JVM that is gone and delete both directories. Public for test servers outside the
 * harness that keep their directories under a root of their own.
 */
public final class OrphanReaper {

    private static final Logger LOG = LoggerFactory.getLogger(OrphanReaper.class);

    /** The file in a server's directory holding its JVM's pid. */
    private static final String OWNER_FILE = "jvm.pid";

    /** The file in a server's directory naming its socket directory. */
    private static final String SOCKET_DIR_FILE = "socket.dir";

    private OrphanReaper() {}

    /**
     * The pid files a server directory may hold, as the embedded MySQL and the MariaDB test server
     * write them.
     */
    private static final List<String> PID_FILES =
            List.of("data/mysqld.pid", "mysqld.pid", "mariadb.pid");

    /** The server executables reaping may kill (a reused pid of anything else is left alone). */
    private static final Set<String> SERVER_COMMANDS = Set.of("mysqld", "mariadbd");

    /** Records in a new server's directory which JVM owns it and where its socket directory is. */
    public static void markOwner(Path serverDir, long jvmPid, Path socketDir) throws IOException {
        Files.writeString(
                serverDir.resolve(OWNER_FILE), Long.toString(jvmPid), StandardCharsets.US_ASCII);
        // so that reap can delete the socket directory of a JVM killed before its hooks ran
        Files.writeString(
                serverDir.resolve(SOCKET_DIR_FILE), socketDir.toString(), StandardCharsets.UTF_8);
    }

    /**
     * Kills the server processes of test JVMs that are gone and deletes their directories (each a
     * directory directly under {@code serversRoot}) and socket directories.
     */
    public static void reap(Path serversRoot) {
        if (!Files.isDirectory(serversRoot)) {
            return;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(serversRoot)) {
            for (Path d : dirs) {
                Optional<Long> owner = readPid(d.resolve(OWNER_FILE));
                if (owner.isEmpty() || isAlive(owner.get())) {
                    continue;
                }
                PID_FILES.stream()
                        .map(f -> readPid(d.resolve(f)))
                        .flatMap(Optional::stream)
                        .findFirst()
                        .flatMap(ProcessHandle::of)
                        .filter(OrphanReaper::isServer)
                        .ifPresent(
                                p -> {
                                    LOG.info(
                                            "Stopping orphaned server pid {} of a finished test JVM",
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

    private static boolean isServer(ProcessHandle p) {
        return p.info()
                .command()
                .map(c -> Paths.get(c).getFileName())
                .map(name -> SERVER_COMMANDS.contains(name.toString()))
                .orElse(false);
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
