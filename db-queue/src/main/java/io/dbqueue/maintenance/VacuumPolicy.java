package io.dbqueue.maintenance;

import io.dbqueue.common.InvalidValueException;
import java.time.Duration;

/**
 * When the library vacuums a queue table itself. Every claimed task leaves dead row versions (its
 * lease, its delete) in the table and dead entries in the claim index, which claims walk until
 * vacuum removes them. A stock server's autovacuum looks at a table at most once a minute
 * ({@code autovacuum_naptime}), and a busy queue leaves millions of dead rows in a minute; so the
 * workers run {@code VACUUM} on their table after every {@code claimedTasks} claimed tasks, at
 * most once per {@code minInterval}. This needs no server setting and works on managed services:
 * the table's owner may vacuum it.
 *
 * @param claimedTasks tasks claimed by this process since the last vacuum that start the next one; 0: never
 * @param minInterval  the least time between the starts of two vacuums
 */
public record VacuumPolicy(long claimedTasks, Duration minInterval) {

    /** After 10,000 claimed tasks, at most once a second. */
    public static final VacuumPolicy DEFAULT = new VacuumPolicy(10_000, Duration.ofSeconds(1));
    /** Leaves the table to autovacuum. */
    public static final VacuumPolicy OFF = new VacuumPolicy(0, Duration.ZERO);

    public VacuumPolicy {
        if (claimedTasks < 0) {
            throw new InvalidValueException("claimedTasks", "must be 0 (off) or more", claimedTasks);
        }
        if (minInterval == null || minInterval.isNegative()) {
            throw new InvalidValueException("minInterval", "must not be negative", minInterval);
        }
    }

    public boolean enabled() {
        return claimedTasks > 0;
    }

    /** Whether a vacuum is due after {@code claimed} tasks and {@code sinceLast} since the last one started. */
    public boolean due(long claimed, Duration sinceLast) {
        return enabled() && claimed >= claimedTasks && sinceLast.compareTo(minInterval) >= 0;
    }
}
