package io.capstan.flink.mysql.testing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 *
 * <p>This class starts, restarts and stops the processes; {@link OrphanReaper} cleans up after dead
 * JVMs, {@link MysqldWatchdog} is the loop, {@link ErrorLogTail} reads the error log.
 */
final class EmbeddedMySql {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMySql.class);

    /** Flags that must match between --initialize and later starts of the template's copies. */
    static final List<String> INIT_TIME_DEFAULTS = List.of("--innodb-log-file-size=8M");

    private static final long JVM_PID = ProcessHandle.current().pid();
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Set<EmbeddedMySql> LIVE = ConcurrentHashMap.newKeySet();

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
            OrphanReaper.markOwner(dir, JVM_PID, socketDir.path());
        } catch (IOException e) {
            socketDir.close();
            Files2.deleteRecursively(dir);
            throw new UncheckedIOException("could not create " + dir, e);
        }
        long t0 = System.nanoTime();
        try {
            Files2.copyTree(dist.templateData(), dir.resolve("data"));
        } catch (RuntimeException e) {
            socketDir.close();
            Files2.deleteRecursively(dir);
            throw e;
        }
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
        long logOffset = ErrorLogTail.size(errorLog());
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
        watchdog = MysqldWatchdog.start(JVM_PID, process.pid());
        awaitReady(logOffset);
    }

    private void awaitReady(long logOffset) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            String log = ErrorLogTail.readFrom(errorLog(), logOffset);
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
                                + ErrorLogTail.lastLines(out, 20));
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

    private static synchronized void installHookAndReap(Path serversRoot) {
        if (!hookInstalled) {
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(EmbeddedMySql::stopAll, "embedded-mysql-shutdown"));
            hookInstalled = true;
        }
        if (!reaped) {
            OrphanReaper.reap(serversRoot);
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

    private Path errorLog() {
        return dir.resolve("mysqld.err");
    }

    Path socketPath() {
        return socketDir.socket("mysqld.sock");
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
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
