package io.dbqueue.consumer;

/** Timings of one processed message as test-app receives them, in microseconds since the epoch. */
public record Stat(long testId, long taskId, long enqueuedAtMicros, long claimedAtMicros, long completedAtMicros) {
}
