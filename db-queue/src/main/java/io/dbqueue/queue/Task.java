package io.dbqueue.queue;

import java.time.Instant;
import java.util.Map;

/**
 * A claimed task as its handler sees it.
 *
 * @param createdAt        when it was enqueued; null when its row has none (written by the application's own SQL)
 * @param attempt          claims since it was enqueued or re-enqueued, this one included
 * @param reenqueueAttempt times a handler re-enqueued it
 * @param totalAttempt     claims over its whole life
 * @param priority         its priority on a layout with {@link Layout#priorities() priorities}; 0 elsewhere
 * @param headers          what its producer (or an {@link EnqueueInterceptor}, e.g. a trace context) gave it;
 *                         empty when nothing did or its table has no {@code headers} column
 */
public record Task(long id, String queueName, String payload, Instant createdAt, int attempt,
                   int reenqueueAttempt, int totalAttempt, int priority, Map<String, String> headers) {

    public Task {
        headers = headers == null ? Map.of() : headers;
    }

    /** A task of the default priority, 0, without headers. */
    public Task(long id, String queueName, String payload, Instant createdAt, int attempt, int reenqueueAttempt,
                int totalAttempt) {
        this(id, queueName, payload, createdAt, attempt, reenqueueAttempt, totalAttempt, 0);
    }

    /** A task without headers. */
    public Task(long id, String queueName, String payload, Instant createdAt, int attempt, int reenqueueAttempt,
                int totalAttempt, int priority) {
        this(id, queueName, payload, createdAt, attempt, reenqueueAttempt, totalAttempt, priority, Map.of());
    }
}
