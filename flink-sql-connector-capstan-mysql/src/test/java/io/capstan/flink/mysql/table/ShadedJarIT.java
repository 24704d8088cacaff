package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.testing.FlinkLines;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import com.github.luben.zstd.Zstd;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static io.capstan.flink.mysql.table.SqlItSupport.createTable;
import static io.capstan.flink.mysql.table.SqlItSupport.gtidExecuted;
import static io.capstan.flink.mysql.table.SqlItSupport.options;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shaded SQL jar (this module's packaged artifact) on its own: its contents, and a CREATE TABLE
 * plus SELECT in a separate JVM whose classpath holds only Flink's jars (from
 * target/flink-classpath.txt, written by the build), MySQL Connector/J's jar as users put it into
 * lib/, and the shaded jar added to the session; not this module's classes or the connector's other
 * dependencies. The shaded jar itself in lib/ is run on a standalone cluster of each Flink line by
 * {@code SqlGatewayConnectorClusterIT} (e2e-tests, on both Flink lines).
 */
@Tag(FlinkLines.EVERY_LINE)
class ShadedJarIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static Path jar;
    private static Path driverJar;

    @BeforeAll
    static void findJars() {
        jar = Paths.get(System.getProperty("capstan.sql.jar"));
        assertThat(jar)
                .as("run 'mvn verify': the shaded jar is built in the package phase")
                .exists();
        driverJar = Paths.get(System.getProperty("capstan.mysql.driver.jar"));
        assertThat(driverJar.getFileName().toString()).startsWith("mysql-connector-j-");
        assertThat(driverJar).as("mysql-connector-j in the local Maven repository").exists();
    }

    @Test
    void jarHoldsOurClassesAndRelocatedBinlogClientOnly() throws IOException {
        List<String> strays = new ArrayList<>();
        List<String> bundledDriverOrProtobuf = new ArrayList<>();
        try (JarFile f = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> e = f.entries(); e.hasMoreElements(); ) {
                String name = e.nextElement().getName();
                if (name.contains("com/mysql/")
                        || name.contains("google/protobuf")
                        || name.endsWith(".proto")) {
                    bundledDriverOrProtobuf.add(name);
                }
                if (!name.endsWith(".class")) {
                    continue;
                }
                if (!name.startsWith("io/capstan/flink/mysql/")
                        && !name.startsWith("io/capstan/shaded/")) {
                    strays.add(name);
                }
            }
            assertThat(strays).as("classes neither ours nor relocated").isEmpty();
            assertThat(bundledDriverOrProtobuf)
                    .as("MySQL Connector/J and protobuf are not bundled")
                    .isEmpty();
            assertThat(f.getEntry("io/capstan/shaded/com/github/shyiko/mysql/binlog/"))
                    .as("the relocated binlog client")
                    .isNotNull();
            assertThat(read(f, "META-INF/services/org.apache.flink.table.factories.Factory"))
                    .contains("io.capstan.flink.mysql.table.CapstanMySqlTableFactory");
            assertThat(f.getEntry("META-INF/services/java.sql.Driver")).isNull();
            assertThat(read(f, "META-INF/LICENSE")).contains("Apache License");
            assertThat(read(f, "META-INF/NOTICE")).contains("capstan-mysql");
            assertThat(f.getEntry("io/capstan/flink/mysql/CapstanMySqlSource.class")).isNotNull();
            assertThat(f.getEntry("org/apache/flink/table/api/TableEnvironment.class")).isNull();
        }
    }

    /**
     * Compressed transactions are decompressed by the jar's own relocated pure-Java zstd: no JNI
     * library (zstd-jni cannot be relocated, and an unrelocated copy clashes with another one in
     * lib/), and a payload compressed by the reference zstd decodes through the jar's classes alone
     * (a class loader that sees the shaded jar and the JDK only).
     */
    @Test
    void zstdIsRelocatedPureJavaAndDecompressesFromTheJarAlone() throws Exception {
        try (JarFile f = new JarFile(jar.toFile())) {
            List<String> nativeOrUnrelocated = new ArrayList<>();
            for (Enumeration<JarEntry> e = f.entries(); e.hasMoreElements(); ) {
                String name = e.nextElement().getName();
                if (name.startsWith("com/github/luben/")
                        || name.startsWith("io/airlift/")
                        || name.matches(".*\\.(so|dll|dylib|jnilib)$")) {
                    nativeOrUnrelocated.add(name);
                }
            }
            assertThat(nativeOrUnrelocated).as("zstd-jni, native code, unrelocated zstd").isEmpty();
            assertThat(
                            f.getEntry(
                                    "io/capstan/shaded/io/airlift/compress/zstd/ZstdDecompressor.class"))
                    .isNotNull();
        }

        byte[] events = new byte[20_000];
        for (int i = 0; i < events.length; i++) {
            events[i] = (byte) (i % 97 < 60 ? 'a' + i % 26 : i * 31);
        }
        byte[] compressed = Zstd.compress(events);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        payloadField(body, 1, compressed.length);
        payloadField(body, 2, 0); // zstd
        payloadField(body, 3, events.length);
        body.write(0); // end of the header
        body.writeBytes(compressed);

        try (URLClassLoader shaded =
                new URLClassLoader(
                        new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            String binlog = "io.capstan.shaded.com.github.shyiko.mysql.binlog.";
            Class<?> in = shaded.loadClass(binlog + "io.ByteArrayInputStream");
            Class<?> header = shaded.loadClass(binlog + "event.TransactionPayloadEventData");
            Object read =
                    shaded.loadClass("io.capstan.flink.mysql.convert.TransactionPayloads")
                            .getMethod("readEvents", in, header)
                            .invoke(
                                    null,
                                    in.getConstructor(byte[].class)
                                            .newInstance((Object) body.toByteArray()),
                                    header.getConstructor().newInstance());
            assertThat((byte[]) read).isEqualTo(events);
        }
    }

    /** A TRANSACTION_PAYLOAD header field: type, length, value, each a packed integer. */
    private static void payloadField(ByteArrayOutputStream b, int type, int value) {
        byte[] v = packedInteger(value);
        b.writeBytes(packedInteger(type));
        b.writeBytes(packedInteger(v.length));
        b.writeBytes(v);
    }

    private static byte[] packedInteger(int value) {
        if (value < 251) {
            return new byte[] {(byte) value};
        }
        assertThat(value).isLessThan(1 << 16);
        return new byte[] {(byte) 0xfc, (byte) value, (byte) (value >>> 8)};
    }

    /** The SQL jar added to the session ({@code ADD JAR}), the driver in lib/. */
    @Test
    void createTableAndSelectWithTheJarAddedToTheSession() throws Exception {
        runSelect("add-jar", "shaded_added");
    }

    /** Without the driver jar in lib/: planning fails with the one line naming it. */
    @Test
    void withoutTheDriverPlanningFailsNamingTheJar() throws Exception {
        DB.execute("CREATE TABLE shaded_nodriver (id INT NOT NULL PRIMARY KEY)");
        String ddl =
                createTable(
                        "shaded_nodriver",
                        "id INT NOT NULL, PRIMARY KEY (id) NOT ENFORCED",
                        options(DB, "shaded_nodriver", gtidExecuted(DB)));
        List<String> classpath = new ArrayList<>(flinkClasspath());
        classpath.add(jar.toString());
        Process p = start("no-driver", classpath, "lib", ddl, "SELECT id FROM shaded_nodriver");
        try {
            boolean exited = p.waitFor(120, TimeUnit.SECONDS);
            String out = Files.readString(log("no-driver"));
            assertThat(exited).as("child finished; output:\n" + tail(out)).isTrue();
            assertThat(p.exitValue()).as("exit code; output:\n" + tail(out)).isNotZero();
            assertThat(out)
                    .contains(
                            "MySQL Connector/J is not on the classpath: put"
                                    + " mysql-connector-j-8.x.jar (com.mysql:mysql-connector-j)"
                                    + " into Flink's lib/ directory")
                    .doesNotContain("NoClassDefFoundError")
                    .doesNotContain(DB.connectorAccount().password());
        } finally {
            p.destroyForcibly();
        }
    }

    private void runSelect(String mode, String table) throws Exception {
        DB.execute("CREATE TABLE " + table + " (id INT NOT NULL PRIMARY KEY, v VARCHAR(8))");
        String ddl =
                createTable(
                        table,
                        "id INT NOT NULL, v STRING, tbl STRING METADATA FROM 'table_name' VIRTUAL,"
                                + " PRIMARY KEY (id) NOT ENFORCED",
                        options(DB, table, gtidExecuted(DB)));

        List<String> classpath = new ArrayList<>(flinkClasspath());
        classpath.add(driverJar.toString()); // lib/, as users install it
        Process p = start(mode, classpath, mode, ddl, "SELECT id, v, tbl FROM " + table);
        try {
            DB.execute(
                    "INSERT INTO " + table + " VALUES (1, 'one')",
                    "INSERT INTO " + table + " VALUES (2, 'two')");
            boolean exited = p.waitFor(180, TimeUnit.SECONDS);
            String out = Files.readString(log(mode));
            assertThat(exited).as("child finished; output:\n" + tail(out)).isTrue();
            assertThat(p.exitValue()).as("exit code; output:\n" + tail(out)).isZero();
            assertThat(out)
                    .contains("ROW +I[1, one, " + table + "]")
                    .contains("ROW +I[2, two, " + table + "]")
                    .contains("DONE")
                    .doesNotContain(DB.connectorAccount().password());
        } finally {
            p.destroyForcibly();
        }
    }

    private static Path log(String name) {
        // Under target/: two builds on one machine must not write each other's logs.
        return Paths.get("target", "shaded-jar-it-" + name + ".log").toAbsolutePath();
    }

    /** Starts {@link ShadedJarSqlMain} on {@code classpath}; its output goes to {@link #log}. */
    private static Process start(
            String name, List<String> classpath, String mode, String ddl, String query)
            throws IOException {
        classpath = new ArrayList<>(classpath);
        classpath.add(mainClassOnly().toString());

        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx768m");
        for (String opt : System.getProperty("capstan.jvm.opens", "").trim().split("\\s+")) {
            if (!opt.isBlank()) {
                command.add(opt);
            }
        }
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classpath));
        command.add(ShadedJarSqlMain.class.getName());
        command.add(mode);
        command.add(jar.toString());
        command.add(ddl);
        command.add(query);
        command.add("2");
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log(name).toFile())
                .start();
    }

    private static String tail(String s) {
        return s.length() < 6000 ? s : s.substring(s.length() - 6000);
    }

    /** Flink and its dependencies: the test classpath without capstan and its dependencies. */
    private static List<String> flinkClasspath() throws IOException {
        Path file = Paths.get(System.getProperty("capstan.flink.classpath.file"));
        String text = Files.readString(file).trim();
        List<String> entries = new ArrayList<>();
        for (String e : text.split(File.pathSeparator)) {
            if (!e.isBlank()) {
                entries.add(e);
            }
        }
        assertThat(entries)
                .noneMatch(
                        e ->
                                e.contains("mysql-connector-j")
                                        || e.contains("flink-connector-capstan-mysql")
                                        || e.contains("mysql-binlog-connector"));
        return entries;
    }

    /** A directory holding only the driver's main class. */
    private static Path mainClassOnly() throws IOException {
        String resource = ShadedJarSqlMain.class.getName().replace('.', '/') + ".class";
        Path dir = Files.createTempDirectory("shaded-main");
        Path target = dir.resolve(resource);
        Files.createDirectories(target.getParent());
        try (var in = ShadedJarIT.class.getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, target);
        }
        return dir;
    }

    private static String read(JarFile f, String entry) throws IOException {
        JarEntry e = f.getJarEntry(entry);
        assertThat(e).as(entry).isNotNull();
        return new String(f.getInputStream(e).readAllBytes(), StandardCharsets.UTF_8);
    }
}
