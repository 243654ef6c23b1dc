package io.dbqueue.queue;

import java.time.Instant;

/**
 * A claimed task as its handler sees it.
 *
 * @param attempt          claims since it was enqueued or re-enqueued, this one included
 * @param reenqueueAttempt times a handler re-enqueued it
 * @param totalAttempt     claims over its whole life
 * @param priority         its priority on a layout with {@link Layout#priorities() priorities}; 0 elsewhere
 */
public record Task(long id, String queueName, String payload, Instant createdAt, int attempt,
                   int reenqueueAttempt, int totalAttempt, int priority) {

    /** A task of the default priority, 0. */
    public Task(long id, String queueName, String payload, Instant createdAt, int attempt, int reenqueueAttempt,
                int totalAttempt) {
        this(id, queueName, payload, createdAt, attempt, reenqueueAttempt, totalAttempt, 0);
    }
}
