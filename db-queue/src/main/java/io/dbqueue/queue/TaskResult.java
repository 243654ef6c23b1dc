package io.dbqueue.queue;

import java.time.Duration;
import java.util.Objects;

/** A handler's answer for one task. */
public sealed interface TaskResult {

    /** Done: remove the task. */
    static TaskResult finish() {
        return Finish.INSTANCE;
    }

    /** Failed: retry per the {@link RetryPolicy}, or dead-letter it when attempts are used up. */
    static TaskResult fail(String error) {
        return new Fail(Objects.requireNonNull(error, "error"));
    }

    /** Run it again after {@code delay}; its attempt counter starts over. */
    static TaskResult reenqueue(Duration delay) {
        if (delay == null || delay.isNegative()) {
            throw new IllegalArgumentException("reenqueue delay must be zero or positive, was " + delay);
        }
        return new Reenqueue(delay);
    }

    enum Finish implements TaskResult { INSTANCE }

    record Fail(String error) implements TaskResult {
    }

    record Reenqueue(Duration delay) implements TaskResult {
    }
}
