package io.capstan.flink.mysql;

import io.capstan.flink.mysql.testing.FlinkLines;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.conditions.ArchPredicates.are;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every internal package has a {@code package-info.java} that states its job and, in a line {@code
 * Uses: ...}, the packages of the connector it may use ("the public API": the root package). The
 * dependencies in the compiled classes must stay within that list, so the list is a contract, not a
 * description that drifts.
 */
@Tag(FlinkLines.NEUTRAL)
class PackageContractsTest {

    private static final String BASE = "io.capstan.flink.mysql";
    private static final Pattern USES =
            Pattern.compile("<p>Uses: (.*?)\\.\\s*\\*/", Pattern.DOTALL);
    private static final Pattern CODE = Pattern.compile("\\{@code\\s+([a-z.]+)\\}");

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = ArchitectureTest.mainClasses();
    }

    @Test
    void everyInternalPackageStatesItsJobAndWhatItUses() throws IOException {
        List<String> missing = new ArrayList<>();
        for (Path dir : packageDirs()) {
            Path info = dir.resolve("package-info.java");
            if (!Files.exists(info) || !USES.matcher(read(info)).find()) {
                missing.add(packageOf(dir));
            }
        }
        assertThat(missing).as("packages without a package-info.java with a Uses: line").isEmpty();
    }

    @Test
    void noPackageUsesAPackageItsContractDoesNotName() throws IOException {
        for (Path dir : packageDirs()) {
            Path info = dir.resolve("package-info.java");
            if (!Files.exists(info)) {
                continue; // reported by the test above
            }
            String pkg = packageOf(dir);
            Matcher uses = USES.matcher(read(info));
            if (!uses.find()) {
                continue;
            }
            List<String> allowed = new ArrayList<>();
            allowed.add(BASE + "." + pkg);
            String listed = uses.group(1).replaceAll("\\s*\\n\\s*\\*\\s*", " ");
            Matcher code = CODE.matcher(listed);
            while (code.find()) {
                allowed.add(BASE + "." + code.group(1));
            }
            if (listed.contains("the public API")) {
                allowed.add(BASE);
            }
            noClasses()
                    .that()
                    .resideInAPackage(BASE + "." + pkg)
                    .should()
                    .dependOnClassesThat(
                            are(resideInAPackage(BASE + ".."))
                                    .and(
                                            com.tngtech.archunit.base.DescribedPredicate.not(
                                                    resideInAnyPackage(
                                                            allowed.toArray(new String[0])))))
                    .as(pkg + " uses only what its package-info.java names")
                    .check(classes);
        }
    }

    /** The connector module's main source trees compiled on this line: shared, and Flink 2's. */
    private static List<Path> packageDirs() throws IOException {
        Path module = moduleDir();
        List<Path> dirs = new ArrayList<>();
        for (String tree : List.of("src/main/java", "src/main/flink-2/java")) {
            Path base = module.resolve(tree).resolve(BASE.replace('.', '/'));
            try (Stream<Path> walk = Files.walk(base)) {
                dirs.addAll(
                        walk.filter(Files::isDirectory)
                                .filter(d -> !d.equals(base))
                                .filter(PackageContractsTest::holdsClasses)
                                .collect(Collectors.toList()));
            }
        }
        return dirs;
    }

    private static boolean holdsClasses(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(
                    f ->
                            f.toString().endsWith(".java")
                                    && !f.getFileName().toString().equals("package-info.java"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + dir, e);
        }
    }

    private static String packageOf(Path dir) {
        String path = dir.toString().replace('\\', '/');
        String marker = BASE.replace('.', '/') + "/";
        return path.substring(path.indexOf(marker) + marker.length()).replace('/', '.');
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    /** The module's tests run with the module as working directory. */
    private static Path moduleDir() {
        Path here = Path.of("").toAbsolutePath();
        return Files.exists(here.resolve("src/main/java"))
                ? here
                : here.resolve("flink-connector-capstan-mysql");
    }
}
