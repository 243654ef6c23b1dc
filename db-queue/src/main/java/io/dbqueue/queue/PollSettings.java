package io.dbqueue.queue;

import io.dbqueue.common.Checks;
import java.time.Duration;

/**
 * How a worker thread polls. After a full batch it polls again at once (there is a backlog);
 * after a partial batch it waits {@code betweenTaskTimeout}; after an empty poll
 * {@code noTaskTimeout}; after a failure such as a lost database, {@code fatalCrashTimeout},
 * doubling on each consecutive failure up to 32 times that.
 */
public record PollSettings(int batchSize, Duration betweenTaskTimeout, Duration noTaskTimeout,
                           Duration fatalCrashTimeout) {

    public static final int MAX_BATCH_SIZE = 10_000;

    /** The experiment's settings: batch 10, 10 ms, 100 ms, 1 s. */
    public static final PollSettings DEFAULT = new PollSettings(10, Duration.ofMillis(10), Duration.ofMillis(100),
            Duration.ofSeconds(1));

    public PollSettings {
        Checks.between("batchSize", batchSize, 1, MAX_BATCH_SIZE);
        Checks.notNegative("betweenTaskTimeout", betweenTaskTimeout);
        Checks.notNegative("noTaskTimeout", noTaskTimeout);
        Checks.notNegative("fatalCrashTimeout", fatalCrashTimeout);
    }

    public PollSettings withBatchSize(int size) {
        return new PollSettings(size, betweenTaskTimeout, noTaskTimeout, fatalCrashTimeout);
    }

    public PollSettings withTimeouts(Duration betweenTask, Duration noTask, Duration fatalCrash) {
        return new PollSettings(batchSize, betweenTask, noTask, fatalCrash);
    }
}
