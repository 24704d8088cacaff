package io.capstan.flink.mysql.snapshot;

import io.capstan.flink.mysql.testing.FlinkLines;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Key order, planning, the cursor gate and the DDL guard are pure: only snapshot.jdbc and
 * snapshot.read touch JDBC. Flink appears only through its table data classes (RowData & co).
 */
@Tag(FlinkLines.NEUTRAL)
class SnapshotPurityTest {

    @Test
    void pureSnapshotPackagesDoNoIo() {
        JavaClasses classes =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.capstan.flink.mysql.snapshot");
        noClasses()
                .that()
                .resideInAnyPackage(
                        "io.capstan.flink.mysql.snapshot.key",
                        "io.capstan.flink.mysql.snapshot.plan",
                        "io.capstan.flink.mysql.snapshot.gate",
                        "io.capstan.flink.mysql.snapshot.ddl")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "java.sql..",
                        "com.github.shyiko..",
                        "io.capstan.flink.mysql.connect..",
                        "io.capstan.flink.mysql.snapshot.jdbc..",
                        "io.capstan.flink.mysql.snapshot.read..",
                        "org.apache.flink.runtime..",
                        "org.apache.flink.streaming..",
                        "org.apache.flink.api.connector..")
                .check(classes);
    }
}
