package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.testing.FlinkLines;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The rules and the facts are pure: only the reader and the entry point touch JDBC. */
@Tag(FlinkLines.NEUTRAL)
class PreflightPurityTest {

    /** Flink's stability annotations (@Internal, @PublicEvolving) are markers, not a dependency. */
    private static final DescribedPredicate<JavaClass> FLINK_BEYOND_ITS_ANNOTATIONS =
            resideInAPackage("org.apache.flink..")
                    .and(not(resideInAPackage("org.apache.flink.annotation..")))
                    .as("are Flink classes other than its annotations");

    @Test
    void onlyTheReaderAndTheEntryPointUseJdbc() {
        JavaClasses classes =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.capstan.flink.mysql.preflight");
        noClasses()
                .that()
                .resideInAPackage("io.capstan.flink.mysql.preflight")
                .and()
                .doNotHaveSimpleName("ServerFactsReader")
                .and()
                .doNotHaveSimpleName("Preflight")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.sql..", "io.capstan.flink.mysql.connect..")
                .orShould()
                .dependOnClassesThat(FLINK_BEYOND_ITS_ANNOTATIONS)
                .check(classes);
    }
}
