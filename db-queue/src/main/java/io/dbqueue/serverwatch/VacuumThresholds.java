package io.dbqueue.serverwatch;

import io.dbqueue.common.Checks;
import java.time.Duration;
import java.util.Optional;

/**
 * When a {@link VacuumWatch} calls a queue table's vacuum blocked: the xmin horizon is older than
 * {@code horizonAge} or than {@code horizonTransactions} transactions, and the table has more than
 * {@code deadTuples} dead tuples that VACUUM has not removed. Either age suffices, since a slot records
 * no time and a busy database can pass many transactions in little time; the dead tuples make the
 * difference between a long transaction that is merely long and one that is hurting the queue.
 *
 * @param horizonAge          a horizon held longer than this holds vacuum back
 * @param horizonTransactions a horizon more transactions old than this holds vacuum back
 * @param deadTuples          a table with more dead tuples than this suffers from it
 */
public record VacuumThresholds(Duration horizonAge, long horizonTransactions, long deadTuples) {

    /** One minute or 100,000 transactions, and more than 1,000 dead tuples. */
    public static final VacuumThresholds DEFAULT = new VacuumThresholds(Duration.ofSeconds(60), 100_000, 1_000);

    public VacuumThresholds {
        Checks.notNegative("horizonAge", horizonAge);
        Checks.notNegative("horizonTransactions", horizonTransactions);
        Checks.notNegative("deadTuples", deadTuples);
    }

    /** Whether {@code holder} has held the horizon too long, in time (where known) or in transactions. */
    public boolean tooOld(HorizonHolder holder) {
        return holder.ageTransactions() > horizonTransactions
                || holder.age().map(age -> age.compareTo(horizonAge) > 0).orElse(false);
    }

    /** The verdict for one table: a horizon held too long, and more dead tuples than the floor. */
    public boolean blocked(Optional<HorizonHolder> holder, long tableDeadTuples) {
        return tableDeadTuples > deadTuples && holder.map(this::tooOld).orElse(false);
    }
}
