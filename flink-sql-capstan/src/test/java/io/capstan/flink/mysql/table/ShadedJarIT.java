package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.io.IOException;
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
 * target/flink-classpath.txt, written by the build) and the shaded jar, not this module's classes
 * or the connector's dependencies.
 */
class ShadedJarIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static Path jar;

    @BeforeAll
    static void findJar() {
        jar = Paths.get(System.getProperty("capstan.sql.jar"));
        assertThat(jar)
                .as("run 'mvn verify': the shaded jar is built in the package phase")
                .exists();
    }

    @Test
    void jarHoldsOurClassesAndRelocatedDependenciesOnly() throws IOException {
        List<String> strays = new ArrayList<>();
        boolean relocatedDriver = false;
        try (JarFile f = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> e = f.entries(); e.hasMoreElements(); ) {
                String name = e.nextElement().getName();
                if (!name.endsWith(".class")) {
                    continue;
                }
                relocatedDriver |= name.equals("io/capstan/shaded/com/mysql/cj/jdbc/Driver.class");
                if (!name.startsWith("io/capstan/flink/mysql/")
                        && !name.startsWith("io/capstan/shaded/")
                        && !name.startsWith("com/github/luben/zstd/")) { // JNI: cannot be relocated
                    strays.add(name);
                }
            }
            assertThat(strays).as("classes neither ours nor relocated").isEmpty();
            assertThat(relocatedDriver).isTrue();
            assertThat(read(f, "META-INF/services/org.apache.flink.table.factories.Factory"))
                    .contains("io.capstan.flink.mysql.table.CapstanMySqlTableFactory");
            assertThat(read(f, "META-INF/services/java.sql.Driver").trim())
                    .isEqualTo("io.capstan.shaded.com.mysql.cj.jdbc.Driver");
            assertThat(f.getEntry("io/capstan/flink/mysql/CapstanMySqlSource.class")).isNotNull();
            assertThat(f.getEntry("org/apache/flink/table/api/TableEnvironment.class")).isNull();
        }
    }

    @Test
    void createTableAndSelectWithTheJarInLib() throws Exception {
        runSelect("lib", "shaded_lib");
    }

    /**
     * Fails today with "No suitable driver": {@code JdbcConnections.open} uses DriverManager, which
     * ignores a driver that a session's user class loader (ADD JAR, sql-client --jar) brings.
     * Verified to pass once JdbcConnections connects through a {@code com.mysql.cj.jdbc.Driver}
     * instance directly (connector module, requested from its owner).
     */
    @Test
    void createTableAndSelectWithTheJarAddedToTheSession() throws Exception {
        runSelect("add-jar", "shaded_added");
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
        if (mode.equals("lib")) {
            classpath.add(jar.toString());
        }
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
        command.add("SELECT id, v, tbl FROM " + table);
        command.add("2");

        Path log = Files.createTempFile("shaded-" + mode, ".log");
        Process p =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        try {
            DB.execute(
                    "INSERT INTO " + table + " VALUES (1, 'one')",
                    "INSERT INTO " + table + " VALUES (2, 'two')");
            boolean exited = p.waitFor(180, TimeUnit.SECONDS);
            String out = Files.readString(log);
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
                                        || e.contains("flink-connector-capstan")
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
