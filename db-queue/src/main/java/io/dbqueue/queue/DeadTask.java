package io.dbqueue.queue;

import java.time.Instant;
import java.util.Map;

/** A task that ran out of attempts, as kept in the dead-letter table, with the headers it was enqueued with. */
public record DeadTask(long id, String queueName, String payload, Instant createdAt, Instant failedAt,
                       int attempt, int reenqueueAttempt, int totalAttempt, String lastError,
                       Map<String, String> headers) {

    public DeadTask {
        headers = headers == null ? Map.of() : headers;
    }

    /** A dead task without headers. */
    public DeadTask(long id, String queueName, String payload, Instant createdAt, Instant failedAt, int attempt,
                    int reenqueueAttempt, int totalAttempt, String lastError) {
        this(id, queueName, payload, createdAt, failedAt, attempt, reenqueueAttempt, totalAttempt, lastError, Map.of());
    }
}
