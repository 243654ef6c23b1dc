package io.dbqueue.bench.producers;

import io.dbqueue.bench.run.Range;

import java.util.List;

/**
 * One way of enqueueing in {@code bench coalescing}, over the repetitions.
 *
 * @param way               how the threads enqueued
 * @param messagesPerSecond enqueued and committed per second
 * @param p50Ms             the median call's time, from the call to its answer
 * @param p99Ms             the 99th percentile call's time
 * @param runs              each repetition's rate
 */
public record CoalescingSample(String way, Range messagesPerSecond, Range p50Ms, Range p99Ms, List<Double> runs) {
}
