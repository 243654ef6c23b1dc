package io.dbqueue.queue;

import java.time.Instant;

/** A task that ran out of attempts, as kept in the dead-letter table. */
public record DeadTask(long id, String queueName, String payload, Instant createdAt, Instant failedAt,
                       int attempt, int reenqueueAttempt, int totalAttempt, String lastError) {
}
