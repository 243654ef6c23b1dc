package io.dbqueue.kafka;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The relay is built on the core's API alone, as a user's code would be. */
class ArchitectureTest {

    @Test
    void theRelayUsesOnlyTheCoresExportedPackages() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.dbqueue.internal..", "io.dbqueue.wakeup..")
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.dbqueue.kafka"));
    }
}
