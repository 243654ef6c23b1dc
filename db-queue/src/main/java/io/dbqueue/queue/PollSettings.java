package io.dbqueue.queue;

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
        checkBatchSize("batchSize", batchSize);
        nonNegative("betweenTaskTimeout", betweenTaskTimeout);
        nonNegative("noTaskTimeout", noTaskTimeout);
        nonNegative("fatalCrashTimeout", fatalCrashTimeout);
    }

    public PollSettings withBatchSize(int size) {
        return new PollSettings(size, betweenTaskTimeout, noTaskTimeout, fatalCrashTimeout);
    }

    public PollSettings withTimeouts(Duration betweenTask, Duration noTask, Duration fatalCrash) {
        return new PollSettings(batchSize, betweenTask, noTask, fatalCrash);
    }

    static void checkBatchSize(String field, int size) {
        if (size <= 0 || size > MAX_BATCH_SIZE) {
            throw new IllegalArgumentException(field + " must be between 1 and " + MAX_BATCH_SIZE + ", was " + size);
        }
    }

    private static void nonNegative(String field, Duration value) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(field + " must be zero or positive, was " + value);
        }
    }
}
