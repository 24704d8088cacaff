package io.capstan.flink.mysql.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * A private directory for one test server's Unix socket, directly under {@code /tmp}.
 *
 * <p>A Unix socket path may hold at most 107 bytes, so a socket beside the server's data under a
 * checkout's {@code target/} fails to bind once the checkout sits deep enough. Each server gets a
 * short directory of its own ({@code /tmp/capstan-<random>/}, owner-only), deleted with the server.
 */
public final class SocketDirectory implements AutoCloseable {

    private static final Path ROOT = Paths.get("/tmp");

    private final Path dir;

    private SocketDirectory(Path dir) {
        this.dir = dir;
    }

    /** Creates a fresh directory; the caller closes it when the server has stopped. */
    public static SocketDirectory create() {
        Path root =
                Files.isDirectory(ROOT) ? ROOT : Paths.get(System.getProperty("java.io.tmpdir"));
        try {
            return new SocketDirectory(Files.createTempDirectory(root, "capstan-"));
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a socket directory under " + root, e);
        }
    }

    /** The socket file {@code name} in this directory. */
    public Path socket(String name) {
        return dir.resolve(name);
    }

    public Path path() {
        return dir;
    }

    /** Deletes the directory and whatever socket or lock file the server left in it. */
    @Override
    public void close() {
        Files2.deleteRecursively(dir);
    }
}
