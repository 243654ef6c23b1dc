package io.dbqueue.spring;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** The starter's packages depend on each other one way, and on the core only through its exported packages. */
class ArchitectureTest {

    private static final JavaClasses STARTER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.dbqueue.spring");

    /** Each package its own slice, io.dbqueue.spring itself included. */
    @Test
    void theStartersPackagesHaveNoCycle() {
        slices().matching("io.dbqueue.(**)").should().beFreeOfCycles().check(STARTER);
    }

    @Test
    void theStarterUsesOnlyTheCoresExportedPackages() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.dbqueue.internal..", "io.dbqueue.wakeup..")
                .check(STARTER);
    }
}
