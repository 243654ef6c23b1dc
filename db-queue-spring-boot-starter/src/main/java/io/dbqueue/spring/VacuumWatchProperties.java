package io.dbqueue.spring;

import io.dbqueue.serverwatch.VacuumThresholds;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The {@code dbq.vacuum-watch.*} properties: how often the starter checks whether the queue tables' vacuum is
 * blocked, and when it calls it blocked (see {@link VacuumThresholds}).
 *
 * @param enabled             Whether to watch the queue tables for vacuum held back by an old xmin horizon.
 * @param interval            How often to check.
 * @param horizonAge          A horizon held longer than this blocks vacuum (sessions and prepared transactions;
 *                            slots record no time).
 * @param horizonTransactions A horizon more transactions old than this blocks vacuum.
 * @param deadTuples          A table is reported only when it has more dead tuples than this.
 */
@ConfigurationProperties("dbq.vacuum-watch")
public record VacuumWatchProperties(@DefaultValue("true") boolean enabled,
                                    @DefaultValue("30s") Duration interval,
                                    @DefaultValue("60s") Duration horizonAge,
                                    @DefaultValue("100000") long horizonTransactions,
                                    @DefaultValue("1000") long deadTuples) {
}
