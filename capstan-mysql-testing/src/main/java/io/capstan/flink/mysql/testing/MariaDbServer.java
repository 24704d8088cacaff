package io.capstan.flink.mysql.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throw-away MariaDB server: for preflight's checks ({@code PreflightMariaDbIT}), the binlog
 * facts {@code MariaDbBinlogFactsIT} pins, and, set up for capture ({@link #startForCapture}), the
 * exactly-once tests that run on MariaDB. It runs Debian's {@code mariadbd} (package {@code
 * mariadb-server-core}, binaries only) from {@code target/}: bootstrapped from the packaged
 * system-table scripts, started on a free loopback port, stopped and deleted on {@link #close()} or
 * at JVM exit. Its Unix socket lives in a short {@link SocketDirectory} of its own: beside the
 * data, a deep checkout would pass the 107-byte socket path limit and mariadbd would not start.
 * Both directories are marked with this JVM's pid ({@link OrphanReaper}), so that the next start
 * stops and deletes what a JVM killed before its shutdown hook ran left behind.
 */
public final class MariaDbServer implements AutoCloseable {

    public static final Path MARIADBD = Paths.get("/usr/sbin/mariadbd");
    private static final Path SHARE = Paths.get("/usr/share/mysql");
    public static final String MISSING =
            "MariaDB test server not found at "
                    + MARIADBD
                    + ": run 'apt-get install -y mariadb-server-core'";

    private final Path dir;
    private final SocketDirectory socketDir;
    private final int port;
    private final Process process;
    private final Thread shutdownHook;

    private MariaDbServer(Path dir, SocketDirectory socketDir, int port, Process process) {
        this.dir = dir;
        this.socketDir = socketDir;
        this.port = port;
        this.process = process;
        this.shutdownHook = new Thread(this::stop, "stop-mariadb-" + port);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    public static boolean isInstalled() {
        return Files.isExecutable(MARIADBD)
                && Files.isRegularFile(SHARE.resolve("mysql_system_tables.sql"));
    }

    /** A server with mariadbd's defaults: no binary log. */
    public static MariaDbServer start() throws IOException, InterruptedException {
        return start(List.of());
    }

    /**
     * A server set up as docs/operations.md asks for capture (binary log in ROW format with full
     * images and metadata), with the harness's connector account, as a {@link MySqlServer} for the
     * tests' databases ({@code MySqlTestDatabase}); closing it stops and deletes the server. Its
     * binary log and GTID history start empty, as a fresh embedded MySQL's do (the account's
     * creation is not in them), so that two such servers can replicate ({@link ReplicationSetup}).
     *
     * @param extraFlags {@code mariadbd} options after the capture ones, so that one given here
     *     wins: e.g. {@code --gtid-strict-mode=ON}, and for a replica whose binary log carries its
     *     primary's transactions {@code --log-slave-updates=ON}
     */
    public static MySqlServer startForCapture(int serverId, String... extraFlags) {
        if (!isInstalled()) {
            throw new IllegalStateException(MISSING);
        }
        List<String> flags =
                new ArrayList<>(
                        List.of(
                                "--log-bin=mariadb-bin",
                                "--server-id=" + serverId,
                                "--binlog-format=ROW",
                                "--binlog-row-image=FULL",
                                "--binlog-row-metadata=FULL",
                                // a test server: durability is not under test, speed is
                                "--innodb-flush-log-at-trx-commit=2",
                                "--sync-binlog=0"));
        flags.addAll(List.of(extraFlags));
        MariaDbServer m;
        try {
            m = start(flags);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting MariaDB", e);
        }
        try {
            MySqlServer s = MySqlServer.adopt("127.0.0.1", m.port, "root", "", m);
            // a replica would replay the primary's account creation on top of its own (an error);
            // and its own, in the primary's domain, would break strict mode's sequence order
            s.executeAsRoot("RESET MASTER");
            return s;
        } catch (RuntimeException e) {
            m.stopKeepingLogs();
            throw e;
        }
    }

    /**
     * A server started with these extra {@code mariadbd} options as well (e.g. {@code
     * --log-bin=mariadb-bin}, {@code --server-id=7}); they come after the harness's own, so an
     * option given here wins.
     */
    public static MariaDbServer start(List<String> flags) throws IOException, InterruptedException {
        Path serversRoot = Paths.get("target", "mariadb-servers").toAbsolutePath();
        reapOnce(serversRoot);
        Path dir =
                serversRoot.resolve("m" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        SocketDirectory socketDir = SocketDirectory.create();
        Process p;
        int port;
        try {
            Files.createDirectories(dir.resolve("data"));
            Files.createDirectories(dir.resolve("tmp"));
            // a JVM killed before its shutdown hook ran leaves both directories (and mariadbd):
            // the next start reaps them
            OrphanReaper.markOwner(dir, ProcessHandle.current().pid(), socketDir.path());
            bootstrap(dir);
            port = freePort();
            List<String> cmd = baseCommand(dir);
            cmd.add("--port=" + port);
            cmd.add("--bind-address=127.0.0.1");
            cmd.add("--socket=" + socketDir.socket("mariadb.sock"));
            cmd.add("--pid-file=" + dir.resolve("mariadb.pid"));
            cmd.add("--log-error=" + dir.resolve("error.log"));
            cmd.addAll(flags);
            p =
                    new ProcessBuilder(cmd)
                            .redirectErrorStream(true)
                            .redirectOutput(dir.resolve("mariadbd.out").toFile())
                            .start();
        } catch (IOException | InterruptedException | RuntimeException e) {
            // the directory stays for its logs (the message names them); the next run reaps it
            socketDir.close();
            throw e;
        }
        MariaDbServer server = new MariaDbServer(dir, socketDir, port, p);
        try {
            server.awaitReady();
        } catch (IOException | InterruptedException | RuntimeException e) {
            server.stopKeepingLogs();
            throw e;
        }
        return server;
    }

    private static boolean reaped;

    /** Once per JVM: stops and deletes what test JVMs that died without their hooks left. */
    private static synchronized void reapOnce(Path serversRoot) {
        if (!reaped) {
            OrphanReaper.reap(serversRoot);
            reaped = true;
        }
    }

    /** Creates the system tables, as mariadb-install-db does, without needing its client tools. */
    private static void bootstrap(Path dir) throws IOException, InterruptedException {
        Path script = dir.resolve("bootstrap.sql");
        StringBuilder sql = new StringBuilder("CREATE DATABASE mysql;\nUSE mysql;\n");
        for (String file : List.of("mysql_system_tables.sql", "mysql_system_tables_data.sql")) {
            sql.append(Files.readString(SHARE.resolve(file), StandardCharsets.UTF_8)).append('\n');
        }
        Files.writeString(script, sql, StandardCharsets.UTF_8);
        List<String> cmd = baseCommand(dir);
        cmd.add("--bootstrap");
        Process p =
                new ProcessBuilder(cmd)
                        .redirectInput(script.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("bootstrap.log").toFile())
                        .start();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException(
                    "mariadbd --bootstrap failed; see " + dir.resolve("bootstrap.log"));
        }
    }

    private static List<String> baseCommand(Path dir) {
        List<String> cmd = new ArrayList<>();
        cmd.add(MARIADBD.toString());
        cmd.add("--no-defaults");
        cmd.add("--datadir=" + dir.resolve("data"));
        cmd.add("--tmpdir=" + dir.resolve("tmp"));
        cmd.add("--lc-messages-dir=" + SHARE);
        cmd.add("--skip-name-resolve");
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.add("--user=root");
        }
        return cmd;
    }

    private void awaitReady() throws IOException, InterruptedException {
        Path log = dir.resolve("error.log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains("ready for connections")) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("mariadbd exited during startup; see " + log);
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("mariadbd was not ready within 60 s; see " + log);
    }

    /** The bootstrap creates root@127.0.0.1 without a password; fine for a loopback test server. */
    public MySqlAccount rootAccount() {
        return new MySqlAccount("127.0.0.1", port, "root", "");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * Stops the server and deletes its socket directory; its directory under {@code target/} stays
     * (the next run's reaping deletes it).
     */
    private void stopKeepingLogs() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook stops the server
        }
    }

    private void stop() {
        stopProcess();
        socketDir.close();
    }

    private void stopProcess() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        stopKeepingLogs();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
