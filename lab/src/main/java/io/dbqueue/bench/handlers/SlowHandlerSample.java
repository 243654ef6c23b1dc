package io.dbqueue.bench.handlers;

import io.dbqueue.bench.run.Range;

import java.util.List;

/**
 * Producers' enqueue rate in one phase of {@code bench slow-handlers}, over the repetitions.
 *
 * @param phase          what ran next to the producers
 * @param messagesPerSecond enqueued and committed per second
 * @param failedBatches  enqueues that failed (no pooled connection within its timeout), summed over the repetitions
 * @param runs           each repetition's rate
 */
public record SlowHandlerSample(String phase, Range messagesPerSecond, long failedBatches, List<Double> runs) {
}
