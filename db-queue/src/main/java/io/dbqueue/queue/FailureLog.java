package io.dbqueue.queue;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;

/**
 * Logs the failures of the tasks a queue's workers handle, so that an operator sees them without writing code: each
 * failed attempt at WARN and each task moved to the dead letters at ERROR, with the queue, the task's id, its attempt
 * and the error. At most {@link #LINES_PER_WINDOW} lines of each kind per queue per {@link #WINDOW}; the first line
 * after a stretch over that says how many were left out. The logger is this class's, so logging configuration can
 * also quiet it.
 */
public final class FailureLog implements QueueListener {

    /** Lines of one kind (failed attempts, dead letters) logged per queue in each window, at most. */
    public static final int LINES_PER_WINDOW = 10;
    public static final Duration WINDOW = Duration.ofMinutes(1);

    /** The least severe failure logged: {@code WARN} both kinds, {@code ERROR} dead letters only, {@code OFF} none. */
    public enum Level { WARN, ERROR, OFF }

    private static final Logger LOG = LoggerFactory.getLogger(FailureLog.class);

    private record Key(QueueLocation queue, boolean deadLettered) {
    }

    private final Level level;
    private final LogRateLimit limit;

    FailureLog(Level level, LogRateLimit limit) {
        this.level = Objects.requireNonNull(level, "level");
        this.limit = limit;
    }

    /** The failure log at {@code level}, or {@link QueueListener#NONE} when it is {@code OFF}. */
    public static QueueListener of(Level level) {
        return level == Level.OFF ? QueueListener.NONE
                : new FailureLog(level, new LogRateLimit(LINES_PER_WINDOW, WINDOW, System::nanoTime));
    }

    @Override
    public void failed(QueueLocation queue, Task task, String error, boolean deadLettered) {
        if (!deadLettered && level != Level.WARN) {
            return;
        }
        LogRateLimit.Decision decision = limit.acquire(new Key(queue, deadLettered));
        if (!decision.log()) {
            return;
        }
        org.slf4j.event.Level at = deadLettered ? org.slf4j.event.Level.ERROR : org.slf4j.event.Level.WARN;
        if (decision.suppressedBefore() > 0) {
            LOG.atLevel(at).log("{}: {} more {} were not logged (at most {} lines per {})", queue,
                    decision.suppressedBefore(), deadLettered ? "tasks moved to the dead letters" : "failed attempts",
                    limit.permits(), limit.window());
        }
        LOG.atLevel(at).log(deadLettered ? "{}: task {} moved to the dead letters after attempt {}: {}"
                : "{}: task {} failed on attempt {}: {}", queue, task.id(), task.attempt(), error);
    }
}
