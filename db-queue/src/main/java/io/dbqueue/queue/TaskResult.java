package io.dbqueue.queue;

import io.dbqueue.common.Checks;

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
        return new Fail(Objects.requireNonNull(error, "error"), true);
    }

    /**
     * Failed for good (a payload that cannot be read, a request the receiver rejects): move it to the
     * dead letters now, whatever attempts are left. At most once it is only reported, as any failure.
     */
    static TaskResult deadLetter(String error) {
        return new Fail(Objects.requireNonNull(error, "error"), false);
    }

    /** Run it again after {@code delay}; its attempt counter starts over. */
    static TaskResult reenqueue(Duration delay) {
        if (delay == null || delay.isNegative() || delay.compareTo(Checks.LONGEST) > 0) {
            throw new IllegalArgumentException("reenqueue delay must be zero or positive and at most 100 years, was "
                    + delay);
        }
        return new Reenqueue(delay);
    }

    enum Finish implements TaskResult { INSTANCE }

    /** @param retryable whether the retry policy may try it again; false sends it to the dead letters at once */
    record Fail(String error, boolean retryable) implements TaskResult {
    }

    record Reenqueue(Duration delay) implements TaskResult {
    }
}
