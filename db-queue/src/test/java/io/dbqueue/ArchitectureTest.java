package io.dbqueue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The core's packages, top to bottom: the door (io.dbqueue), the schedules, maintenance, the server
 * watch, the two models (queue and log, which know nothing of each other), the LISTEN/NOTIFY plumbing,
 * the JDBC helpers, the shared vocabulary. A package may use those below it only, and no packages form a cycle.
 */
class ArchitectureTest {

    /** The core's own classes: its main output only, not the tests nor other modules in the same packages. */
    private static final JavaClasses CORE = new ClassFileImporter().importPath(mainClasses());

    /** Each package of the core, the root included, is a slice of its own. */
    private static final SliceAssignment PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            return javaClass.getPackageName().startsWith("io.dbqueue")
                    ? SliceIdentifier.of(javaClass.getPackageName()) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the packages of io.dbqueue";
        }
    };

    @Test
    void noPackagesFormACycle() {
        slices().assignedFrom(PACKAGES).should().beFreeOfCycles().check(CORE);
    }

    @Test
    void eachPackageUsesOnlyThoseBelowIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Door").definedBy("io.dbqueue")
                .layer("Schedule").definedBy("io.dbqueue.schedule..")
                .layer("Maintenance").definedBy("io.dbqueue.maintenance..")
                .layer("ServerWatch").definedBy("io.dbqueue.serverwatch..")
                .layer("Queue").definedBy("io.dbqueue.queue..")
                .layer("Log").definedBy("io.dbqueue.log..")
                .layer("Wakeup").definedBy("io.dbqueue.wakeup..")
                .layer("Internal").definedBy("io.dbqueue.internal..")
                .layer("Common").definedBy("io.dbqueue.common..")
                .whereLayer("Door").mayNotBeAccessedByAnyLayer()
                .whereLayer("Schedule").mayOnlyBeAccessedByLayers("Door")
                .whereLayer("Maintenance").mayOnlyBeAccessedByLayers("Door")
                .whereLayer("ServerWatch").mayOnlyBeAccessedByLayers("Door")
                .whereLayer("Queue").mayOnlyBeAccessedByLayers("Door", "Schedule", "Maintenance", "ServerWatch")
                .whereLayer("Log").mayOnlyBeAccessedByLayers("Door", "Maintenance", "ServerWatch")
                .whereLayer("Wakeup").mayOnlyBeAccessedByLayers("Door", "Queue", "Log")
                .whereLayer("Internal").mayOnlyBeAccessedByLayers("Door", "Schedule", "Maintenance", "ServerWatch",
                        "Queue", "Log", "Wakeup")
                .check(CORE);
    }

    private static Path mainClasses() {
        try {
            return Path.of(DbQueue.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
