package io.dbqueue.bench;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** The lab's packages depend on each other one way, and on the core only through its exported API. */
class ArchitectureTest {

    private static final JavaClasses LAB = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.dbqueue.bench");

    @Test
    void thePackagesOfTheLabHaveNoCycle() {
        slices().matching("io.dbqueue.bench.(*)..").should().beFreeOfCycles().check(LAB);
    }

    @Test
    void theLabUsesOnlyTheCoresExportedPackages() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.dbqueue.internal..", "io.dbqueue.wakeup..")
                .check(LAB);
    }
}
