package io.dbqueue.test;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** Test support is used by applications on the class path and the module path alike, so it uses only the core's API. */
class ArchitectureTest {

    @Test
    void testSupportUsesOnlyTheCoresExportedPackages() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.dbqueue.internal..", "io.dbqueue.wakeup..")
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.dbqueue.test"));
    }
}
