package io.dbqueue.consumer;

import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.Task;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers when each message was claimed, until its answer is written. The application consumes
 * one queue, so every task the listener sees is a message.
 */
final class MessageTimings implements QueueListener {

    private final Map<Long, Long> claimedAt = new ConcurrentHashMap<>();

    @Override
    public void picked(QueueLocation location, List<Task> tasks, long claimNanos) {
        long now = micros(Instant.now());
        tasks.forEach(task -> claimedAt.put(task.id(), now));
    }

    /** When {@code task} was claimed, in microseconds since the epoch; {@code orElse} if unknown. */
    long claimedAt(Task task, long orElse) {
        return claimedAt.getOrDefault(task.id(), orElse);
    }

    @Override
    public void finished(QueueLocation location, List<Task> tasks) {
        tasks.forEach(task -> claimedAt.remove(task.id()));
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
