package io.dbqueue.spring;

import io.dbqueue.serverwatch.VacuumThresholds;
import io.dbqueue.serverwatch.VacuumWatch;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * The {@code dbq.vacuum-watch.*} properties: how often the starter checks whether the queue tables'
 * vacuum is blocked, and when it calls it blocked (see {@link VacuumThresholds}).
 */
@ConfigurationProperties("dbq.vacuum-watch")
public class VacuumWatchProperties {

    /** Whether to watch the queue tables for vacuum held back by an old xmin horizon. */
    private boolean enabled = true;

    /** How often to check. */
    private Duration interval = VacuumWatch.DEFAULT_INTERVAL;

    /** A horizon held longer than this blocks vacuum (sessions and prepared transactions; slots record no time). */
    private Duration horizonAge = VacuumThresholds.DEFAULT.horizonAge();

    /** A horizon more transactions old than this blocks vacuum. */
    private long horizonTransactions = VacuumThresholds.DEFAULT.horizonTransactions();

    /** A table is reported only when it has more dead tuples than this. */
    private long deadTuples = VacuumThresholds.DEFAULT.deadTuples();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getInterval() {
        return interval;
    }

    public void setInterval(Duration interval) {
        this.interval = interval;
    }

    public Duration getHorizonAge() {
        return horizonAge;
    }

    public void setHorizonAge(Duration horizonAge) {
        this.horizonAge = horizonAge;
    }

    public long getHorizonTransactions() {
        return horizonTransactions;
    }

    public void setHorizonTransactions(long horizonTransactions) {
        this.horizonTransactions = horizonTransactions;
    }

    public long getDeadTuples() {
        return deadTuples;
    }

    public void setDeadTuples(long deadTuples) {
        this.deadTuples = deadTuples;
    }
}
