package io.capstan.flink.mysql;

import io.capstan.flink.mysql.testing.FlinkLines;

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The pure packages stay pure: GTID algebra, schema value types and event types import no JDBC, no
 * binlog client library and no Flink runtime, so they are unit-testable and reusable. The source
 * (enumerator, planners, reader, fetchers) reaches MySQL only through the interfaces of the proxy
 * package, whose server implementations live in proxy.server.
 */
@Tag(FlinkLines.NEUTRAL)
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = mainClasses();
    }

    /** The connector's compiled main classes (tests excluded). */
    static JavaClasses mainClasses() {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.capstan.flink.mysql");
    }

    private static final String BASE = "io.capstan.flink.mysql";

    /** The pure core: it uses only itself (and Java, Flink's annotations and table types). */
    private static final String[] CORE = {
        BASE + ".error..",
        BASE + ".event..",
        BASE + ".gtid..",
        BASE + ".schema",
        BASE + ".snapshot.ddl..",
        BASE + ".snapshot.gate..",
        BASE + ".snapshot.key..",
        BASE + ".snapshot.plan..",
        BASE + ".stream.."
    };

    private static final String[] IO_AND_RUNTIME = {
        "java.sql..",
        "javax.sql..",
        "com.mysql..",
        "com.github.shyiko..",
        "org.apache.flink.runtime..",
        "org.apache.flink.streaming..",
        "org.apache.flink.connector..",
        "org.apache.flink.api.connector.."
    };

    /**
     * The internal packages form no cycle, so each can be read, tested and changed from the ones it
     * uses. The root package is left out: it is the public API, whose source wires the internals
     * while they use its API types (the change event, the deserializer interface, the options).
     */
    @Test
    void theInternalPackagesFormNoCycle() {
        slices().matching("io.capstan.flink.mysql.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void gtidIsPure() {
        noClasses()
                .that()
                .resideInAPackage("io.capstan.flink.mysql.gtid..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(IO_AND_RUNTIME)
                .check(classes);
    }

    @Test
    void eventIsPure() {
        noClasses()
                .that()
                .resideInAPackage("io.capstan.flink.mysql.event..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(IO_AND_RUNTIME)
                .check(classes);
    }

    /**
     * The binlog events transaction assembly reads are capstan's own: only the binlog client
     * adapter (binlog) turns the library's events into them, so the library stays at the edge. The
     * parts of assembly that already read them (XA) are held to it too.
     */
    @Test
    void theBinlogEventModelUsesNoBinlogLibrary() {
        noClasses()
                .that()
                .resideInAPackage(BASE + ".stream..")
                .or()
                .haveFullyQualifiedName(BASE + ".binlog.XaTransactions")
                .or()
                .haveFullyQualifiedName(BASE + ".binlog.XaId")
                .should()
                .accessClassesThat()
                .resideInAPackage("com.github.shyiko..")
                .orShould()
                .dependOnClassesThat()
                .resideInAPackage("com.github.shyiko..")
                .check(classes);
    }

    @Test
    void schemaValueTypesArePure() {
        // TableId, TableSchema, ColumnSchema, MySqlType are values; their readers are schema.read.
        noClasses()
                .that()
                .resideInAPackage("io.capstan.flink.mysql.schema")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(IO_AND_RUNTIME)
                .check(classes);
    }

    /**
     * The layers of docs/architecture.md: the pure core (positions, the change model, halts,
     * schemas as values, chunk keys, plans, the gate, DDL rules) uses no other layer, so it is
     * unit-tested alone and never reaches the server or Flink's runtime.
     */
    @Test
    void theCoreUsesNoOtherLayer() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("public API")
                .definedBy(BASE, BASE + ".deserializer..", BASE + ".route..")
                .layer("Flink glue")
                .definedBy(BASE + ".source..", BASE + ".compat..")
                .layer("adapters")
                .definedBy(
                        BASE + ".binlog..",
                        BASE + ".connect..",
                        BASE + ".convert..",
                        BASE + ".preflight..",
                        BASE + ".proxy..",
                        BASE + ".schema.read..",
                        BASE + ".snapshot.jdbc..",
                        BASE + ".snapshot.read..")
                .layer("core")
                .definedBy(CORE)
                .whereLayer("core")
                .mayNotAccessAnyLayer()
                .check(classes);
        // Flink's throwable annotation on the halts (how Flink's failure handler treats them) is
        // metadata, not a use of the runtime.
        noClasses()
                .that()
                .resideInAnyPackage(CORE)
                .should()
                .dependOnClassesThat(
                        resideInAnyPackage(IO_AND_RUNTIME)
                                .and(not(resideInAPackage("org.apache.flink.runtime.throwable"))))
                .check(classes);
    }

    /** Flink's connector APIs only where the FLIP-27 source is glued to Flink. */
    @Test
    void onlyTheSourceUsesFlinksConnectorApis() {
        noClasses()
                .that()
                .resideOutsideOfPackages(BASE, BASE + ".source..", BASE + ".compat..")
                .and()
                .resideInAPackage(BASE + "..")
                .and()
                .resideOutsideOfPackage(BASE + ".testing..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.apache.flink.api.connector.source..",
                        "org.apache.flink.connector.base..")
                .check(classes);
    }

    @Test
    void theSourceReachesMySqlOnlyThroughItsProxies() {
        // Enumerator, planners, reader and fetchers ask proxy.JdbcProxy and proxy.BinlogStream,
        // so fakes can stand in for the server in their unit tests; the source builds the
        // server's proxies (proxy.server) and hands them in.
        noClasses()
                .that()
                .resideInAPackage("io.capstan.flink.mysql.source..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "java.sql..",
                        "com.github.shyiko..",
                        "io.capstan.flink.mysql.proxy.server..")
                .check(classes);
    }

    @Test
    void theProxyInterfacesNameNoDriverType() {
        noClasses()
                .that()
                .resideInAPackage("io.capstan.flink.mysql.proxy")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.sql..", "com.mysql..", "com.github.shyiko..")
                .check(classes);
    }

    @Test
    void splitsStateAndDeserializersDoNotTalkToTheServer() {
        noClasses()
                .that()
                .resideInAnyPackage(
                        "io.capstan.flink.mysql.source.split..",
                        "io.capstan.flink.mysql.deserializer..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.sql..", "com.mysql..", "com.github.shyiko..")
                .check(classes);
    }

    @Test
    void everyPublicTopLevelTypeSaysWhetherItIsApi() {
        // @PublicEvolving for what users program against, @Internal for everything else.
        classes()
                .that()
                .arePublic()
                .and()
                .areTopLevelClasses()
                .and()
                .resideOutsideOfPackage("io.capstan.flink.mysql.testing..") // the test harness jar
                .should()
                .beAnnotatedWith(PublicEvolving.class)
                .orShould()
                .beAnnotatedWith(Internal.class)
                .check(classes);
    }
}
