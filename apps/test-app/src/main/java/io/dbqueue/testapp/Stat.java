package io.dbqueue.testapp;

/** Timings of one processed message as a consumer reports them, in microseconds since the epoch. */
public record Stat(long testId, long taskId, long enqueuedAtMicros, long claimedAtMicros, long completedAtMicros) {
}
