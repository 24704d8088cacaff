package io.capstan.flink.mysql.testing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One mysqld process of the embedded distribution, with its own directory {@code
 * target/mysql-servers/s<jvm pid>-<n>/} holding data, pid file, tmpdir and logs, and its Unix
 * socket in a short {@link SocketDirectory} (a deep checkout would pass the socket path limit).
 *
 * <p>No mysqld outlives its test JVM: a shutdown hook stops every server on a normal exit, a
 * watchdog shell loop started with each mysqld stops it when the JVM's pid disappears (kill -9, a
 * crashed fork), and the next start reaps directories and processes of JVMs that are gone.
 */
final class EmbeddedMySql {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMySql.class);

    /** Flags that must match between --initialize and later starts of the template's copies. */
    static final List<String> INIT_TIME_DEFAULTS = List.of("--innodb-log-file-size=8M");

    private static final long JVM_PID = ProcessHandle.current().pid();
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Set<EmbeddedMySql> LIVE = ConcurrentHashMap.newKeySet();

    /** The file in a server's directory naming its socket directory. */
    private static final String SOCKET_DIR_FILE = "socket.dir";

    private static boolean hookInstalled;
    private static boolean reaped;

    private final EmbeddedMySqlDistribution dist;
    private final Path dir;
    private final int serverId;
    private final ServerOptions options;
    private final SocketDirectory socketDir;
    private int port;
    private Process process;
    private Process watchdog;

    private EmbeddedMySql(
            EmbeddedMySqlDistribution dist,
            Path dir,
            int serverId,
            ServerOptions options,
            SocketDirectory socketDir) {
        this.dist = dist;
        this.dir = dir;
        this.serverId = serverId;
        this.options = options;
        this.socketDir = socketDir;
    }

    /** Copies the template data directory and starts mysqld on a free loopback port. */
    static EmbeddedMySql start(Path workDir, int serverId, ServerOptions options) {
        EmbeddedMySqlDistribution dist = EmbeddedMySqlDistribution.get(workDir);
        Path serversRoot = workDir.resolve("mysql-servers");
        installHookAndReap(serversRoot);
        Path dir = serversRoot.resolve("s" + JVM_PID + "-" + SEQUENCE.incrementAndGet());
        SocketDirectory socketDir = SocketDirectory.create();
        try {
            Files.createDirectories(dir.resolve("tmp"));
            Files.writeString(
                    dir.resolve("jvm.pid"), Long.toString(JVM_PID), StandardCharsets.US_ASCII);
            // so that reapOrphans can delete the socket directory of a JVM killed before its hooks
            // ran
            Files.writeString(
                    dir.resolve(SOCKET_DIR_FILE),
                    socketDir.path().toString(),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            socketDir.close();
            throw new UncheckedIOException("could not create " + dir, e);
        }
        long t0 = System.nanoTime();
        Files2.copyTree(dist.templateData(), dir.resolve("data"));
        long copied = System.nanoTime();
        EmbeddedMySql server = new EmbeddedMySql(dist, dir, serverId, options, socketDir);
        LIVE.add(server);
        try {
            server.launchOnFreePort();
        } catch (RuntimeException e) {
            server.destroy();
            throw e;
        }
        LOG.info(
                "Embedded MySQL {} server-id={} on 127.0.0.1:{} started in {} ms (data copy {} ms), dir {}",
                EmbeddedMySqlDistribution.VERSION,
                serverId,
                server.port,
                (System.nanoTime() - t0) / 1_000_000,
                (copied - t0) / 1_000_000,
                dir);
        return server;
    }

    int port() {
        return port;
    }

    Path directory() {
        return dir;
    }

    /** Stops mysqld cleanly and starts it again on the same port with the same data. */
    synchronized void restart() {
        long t0 = System.nanoTime();
        stopProcess();
        launch();
        LOG.info(
                "Embedded MySQL on port {} restarted in {} ms",
                port,
                (System.nanoTime() - t0) / 1_000_000);
    }

    /** Stops mysqld and deletes its directory and its socket directory. */
    synchronized void destroy() {
        stopProcess();
        LIVE.remove(this);
        socketDir.close();
        Files2.deleteRecursively(dir);
    }

    List<String> commandLine() {
        List<String> location = new ArrayList<>(dist.baseFlags());
        location.add("--datadir=" + dir.resolve("data"));
        location.add("--port=" + port);
        location.add("--bind-address=127.0.0.1");
        location.add("--socket=" + socketPath());
        location.add("--pid-file=" + dir.resolve("mysqld.pid"));
        location.add("--tmpdir=" + dir.resolve("tmp"));
        location.add("--log-error=" + errorLog());
        List<String> cmd = new ArrayList<>();
        cmd.add(dist.mysqld().toString());
        cmd.addAll(
                ServerOptions.merge(
                        location,
                        INIT_TIME_DEFAULTS,
                        List.of("--server-id=" + serverId),
                        ServerOptions.REPLICATION_DEFAULTS,
                        ServerOptions.SPEED_DEFAULTS,
                        options.extraFlags()));
        return cmd;
    }

    private void launchOnFreePort() {
        for (int attempt = 1; ; attempt++) {
            port = freePort();
            try {
                launch();
                return;
            } catch (PortInUseException e) {
                if (attempt == 3) {
                    throw new IllegalStateException(
                            "mysqld found no free port after 3 attempts", e);
                }
            }
        }
    }

    private void launch() {
        long logOffset = size(errorLog());
        try {
            process =
                    new ProcessBuilder(commandLine())
                            .redirectErrorStream(true)
                            .redirectOutput(
                                    ProcessBuilder.Redirect.appendTo(
                                            dir.resolve("mysqld.out").toFile()))
                            .start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + dist.mysqld(), e);
        }
        startWatchdog();
        awaitReady(logOffset);
    }

    private void awaitReady(long logOffset) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            String log = readFrom(errorLog(), logOffset);
            if (log.contains("ready for connections")) {
                return;
            }
            if (!process.isAlive()) {
                String out = Files2.tail(dir.resolve("mysqld.out"), 20) + log;
                if (NativeLibraryCheck.isLoaderFailure(out)) {
                    throw new IllegalStateException(NativeLibraryCheck.MISSING_MESSAGE);
                }
                if (out.contains("Bind on TCP/IP port") || out.contains("Address already in use")) {
                    throw new PortInUseException();
                }
                throw new IllegalStateException(
                        "mysqld exited with "
                                + process.exitValue()
                                + " during startup; flags "
                                + options.extraFlags()
                                + "; log "
                                + errorLog()
                                + ":\n"
                                + lastLines(out, 20));
            }
            sleep(50);
        }
        stopProcess();
        throw new IllegalStateException("mysqld was not ready within 120 s; see " + errorLog());
    }

    private void stopProcess() {
        if (process != null && process.isAlive()) {
            process.destroy(); // SIGTERM: a clean shutdown that keeps binlog and GTID state
            try {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        if (watchdog != null) {
            watchdog.destroy();
        }
    }

    /** A shell loop that stops mysqld when the test JVM disappears without running its hooks. */
    private void startWatchdog() {
        long mysqld = process.pid();
        String script =
                "while kill -0 "
                        + JVM_PID
                        + " 2>/dev/null && kill -0 "
                        + mysqld
                        + " 2>/dev/null;"
                        + " do sleep 1; done;"
                        + " kill -TERM "
                        + mysqld
                        + " 2>/dev/null; i=0;"
                        + " while kill -0 "
                        + mysqld
                        + " 2>/dev/null && [ $i -lt 20 ]; do sleep 1; i=$((i+1)); done;"
                        + " kill -KILL "
                        + mysqld
                        + " 2>/dev/null";
        try {
            watchdog =
                    new ProcessBuilder("/bin/sh", "-c", script)
                            .redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                            .start();
        } catch (IOException e) {
            LOG.warn(
                    "Could not start the mysqld watchdog; a killed test JVM may leave mysqld running",
                    e);
        }
    }

    private static synchronized void installHookAndReap(Path serversRoot) {
        if (!hookInstalled) {
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(EmbeddedMySql::stopAll, "embedded-mysql-shutdown"));
            hookInstalled = true;
        }
        if (!reaped) {
            reapOrphans(serversRoot);
            reaped = true;
        }
    }

    /** Stops every server of this JVM, in parallel: SIGTERM to all, then wait for each. */
    private static void stopAll() {
        List<EmbeddedMySql> servers = new ArrayList<>(LIVE);
        for (EmbeddedMySql s : servers) {
            if (s.process != null) {
                s.process.destroy();
            }
        }
        for (EmbeddedMySql s : servers) {
            s.destroy();
        }
    }

    /** Kills mysqld processes of test JVMs that are gone and deletes their directories. */
    static void reapOrphans(Path serversRoot) {
        if (!Files.isDirectory(serversRoot)) {
            return;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(serversRoot)) {
            for (Path d : dirs) {
                Optional<Long> owner = readPid(d.resolve("jvm.pid"));
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

    private Path errorLog() {
        return dir.resolve("mysqld.err");
    }

    Path socketPath() {
        return socketDir.socket("mysqld.sock");
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

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private static String readFrom(Path file, long offset) {
        if (!Files.exists(file)) {
            return "";
        }
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long len = f.length() - offset;
            if (len <= 0) {
                return "";
            }
            byte[] bytes = new byte[(int) Math.min(len, 1 << 20)];
            f.seek(offset);
            f.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static String lastLines(String text, int n) {
        String[] lines = text.split("\n");
        return String.join(
                "\n",
                java.util.Arrays.asList(lines)
                        .subList(Math.max(0, lines.length - n), lines.length));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for mysqld", e);
        }
    }

    private static final class PortInUseException extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }
}
