package io.dbqueue.serverwatch;

import io.dbqueue.serverwatch.VacuumReport.TableVacuum;

/**
 * Observes a {@link VacuumWatch}, e.g. for metrics or alerts. Callbacks run on the thread that
 * checked and must be quick; an exception they throw is logged and ignored.
 */
public interface VacuumListener {

    /** Every successful check, blocked or not. */
    default void checked(VacuumReport report) {
    }

    /** {@code table}'s vacuum became blocked by {@code holder}, or is now blocked by another holder. */
    default void blocked(TableVacuum table, HorizonHolder holder) {
    }

    /** {@code table}'s vacuum, reported blocked before, no longer is. */
    default void cleared(TableVacuum table) {
    }
}
