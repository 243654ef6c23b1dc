package io.dbqueue.consumer;

import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.Task;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Records when each message was claimed and when its completion committed, and hands the
 * timings of every completed message to the statistics reporter. The enqueue time is the task's
 * {@code created_at}, set by the database when the producer's batch was inserted. The application
 * consumes one queue, so every task the listener sees is a message.
 */
final class MessageTimings implements QueueListener {

    private final MessagePayload payloads;
    private final StatsReporter reporter;
    private final Map<Long, Long> claimedAt = new ConcurrentHashMap<>();

    MessageTimings(MessagePayload payloads, StatsReporter reporter) {
        this.payloads = payloads;
        this.reporter = reporter;
    }

    @Override
    public void picked(QueueLocation location, List<Task> tasks, long claimNanos) {
        long now = micros(Instant.now());
        tasks.forEach(task -> claimedAt.put(task.id(), now));
    }

    @Override
    public void finished(QueueLocation location, List<Task> tasks) {
        long now = micros(Instant.now());
        for (Task task : tasks) {
            Long claimed = claimedAt.remove(task.id());
            reporter.add(new Stat(payloads.testId(task.payload()), task.id(), micros(task.createdAt()),
                    claimed == null ? now : claimed, now));
        }
    }

    @Override
    public void failed(QueueLocation location, Task task, String error, boolean deadLettered) {
        claimedAt.remove(task.id());
    }

    @Override
    public void reenqueued(QueueLocation location, Task task) {
        claimedAt.remove(task.id());
    }

    static long micros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1_000;
    }
}
