package io.dbqueue.queue;

import java.time.Instant;

/**
 * A task an operator looked up ({@link QueueAdmin#find}), where it is now.
 *
 * @param since     when it becomes due ({@code WAITING}, {@code SCHEDULED}), its lease or backoff ends
 *                  ({@code LEASED}), when it was dead-lettered ({@code DEAD}), or when it finished ({@code DONE})
 * @param lastError the error it was dead-lettered with; null unless {@code DEAD}
 */
public record FoundTask(long id, State state, String payload, Instant createdAt, Instant since, int attempt,
                        int totalAttempt, String lastError) {

    public enum State {
        /** Due and not claimed. */
        WAITING,
        /** Due later and never claimed: delayed, rescheduled or re-enqueued. */
        SCHEDULED,
        /** Claimed under a lease, or waiting out a retry's backoff. */
        LEASED,
        /** In the dead letters. */
        DEAD,
        /** Finished, and kept in the history of a queue that keeps one ({@link QueueConfig#history()}). */
        DONE
    }
}
