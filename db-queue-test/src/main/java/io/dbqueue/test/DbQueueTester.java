package io.dbqueue.test;

import io.dbqueue.queue.DeadTask;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueMonitor;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.queue.Task;
import io.dbqueue.spring.DbQueues;
import io.dbqueue.spring.PayloadSerializer;
import org.springframework.beans.factory.ObjectProvider;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * For the tests of an application that uses the starter: what a queue holds (as payloads or as typed
 * messages), waiting until the application's consumers have processed a queue, and emptying a queue
 * between tests. Add it to the test's context with {@code @Import(DbQueueTester.class)} next to
 * {@code @SpringBootTest}; it observes the queues as a {@link QueueListener}, so a wait ends as soon
 * as a consumer of this application finishes the last task.
 */
public class DbQueueTester implements QueueListener {

    /** How long a wait goes without looking again when no consumer of this context reports (others may process). */
    private static final Duration RECHECK = Duration.ofMillis(100);
    private static final int MAX_LISTED = 10_000;

    private final ObjectProvider<DbQueues> queues;
    private final ObjectProvider<PayloadSerializer> serializers;
    /** Notified whenever a consumer of this context finishes, fails or re-enqueues a task. */
    private final Object progress = new Object();
    private long generation; // guarded by progress: how often it was notified

    /** Looks the beans up when used: DbQueues itself is made with the application's listeners, this one among them. */
    public DbQueueTester(ObjectProvider<DbQueues> queues, ObjectProvider<PayloadSerializer> serializers) {
        this.queues = queues;
        this.serializers = serializers;
    }

    /** The payloads of the queue's tasks (waiting, claimed or due later), oldest first. */
    public List<String> enqueuedPayloads(String queueId) {
        return monitor(queueId).peek(MAX_LISTED).stream().map(Task::payload).toList();
    }

    /** The queue's tasks as messages of {@code type}, read with the application's {@link PayloadSerializer}. */
    public <T> List<T> enqueued(String queueId, Class<T> type) {
        PayloadSerializer serializer = serializers.getIfAvailable(() -> PayloadSerializer.STRINGS);
        return enqueuedPayloads(queueId).stream().map(payload -> type.cast(serializer.deserialize(payload, type)))
                .toList();
    }

    /** Fails with an {@link AssertionError} listing what the queue holds unless one of its messages equals {@code expected}. */
    public void assertEnqueued(String queueId, Object expected) {
        Objects.requireNonNull(expected, "expected");
        List<?> messages = enqueued(queueId, expected.getClass());
        if (!messages.contains(expected)) {
            throw new AssertionError("queue '" + queueId + "' holds no message equal to " + expected + "; it holds "
                    + messages.size() + ": " + messages);
        }
    }

    /**
     * Waits until the queue holds no task and no consumer of this context holds one it claimed: each one finished
     * or moved to the dead letters (at most once, where a claim deletes its tasks, until the handler has returned).
     * A task failing with retries left stays in the queue until it succeeds or its attempts run out.
     */
    public void awaitProcessed(String queueId, Duration timeout) throws InterruptedException {
        QueueMonitor monitor = monitor(queueId);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long seen = generation();
            // and no worker busy: at most once, a claim deletes its tasks before the handler has them
            if (monitor.depth().tasks() == 0 && busyWorkers(queueId) == 0) {
                return;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                List<Task> remaining = monitor.peek(20);
                throw new AssertionError("queue '" + queueId + "' still holds " + monitor.depth().tasks()
                        + " task(s) and " + busyWorkers(queueId) + " of its workers are busy after " + timeout
                        + (remaining.isEmpty() ? "" : ", e.g. " + describe(remaining)));
            }
            awaitProgressSince(seen, Math.min(RECHECK.toNanos(), left));
        }
    }

    /** Deletes the queue's tasks and its dead letters, and returns the tasks deleted, oldest first. */
    public List<Task> drain(String queueId) {
        List<Task> drained = monitor(queueId).purge();
        queues.getObject().deadLetters(queueId).deleteAll();
        return drained;
    }

    /** The queue's dead letters, oldest first. */
    public List<DeadTask> deadLetters(String queueId) {
        return queues.getObject().deadLetters(queueId).list(0, MAX_LISTED);
    }

    @Override
    public void finished(QueueLocation queue, List<Task> tasks) {
        advance();
    }

    @Override
    public void failed(QueueLocation queue, Task task, String error, boolean deadLettered) {
        advance();
    }

    @Override
    public void reenqueued(QueueLocation queue, Task task) {
        advance();
    }

    /** The queue's workers in this context claiming, handling or acknowledging a batch right now. */
    private int busyWorkers(String queueId) {
        return queues.getObject().workers(queueId).map(QueueWorkers::busyWorkers).orElse(0);
    }

    private void advance() {
        synchronized (progress) {
            generation++;
            progress.notifyAll();
        }
    }

    private long generation() {
        synchronized (progress) {
            return generation;
        }
    }

    private void awaitProgressSince(long seen, long nanos) throws InterruptedException {
        synchronized (progress) {
            if (generation == seen) {
                TimeUnit.NANOSECONDS.timedWait(progress, nanos);
            }
        }
    }

    private QueueMonitor monitor(String queueId) {
        return queues.getObject().monitor(queueId);
    }

    private static String describe(List<Task> tasks) {
        return tasks.stream().map(task -> "#" + task.id() + " attempt " + task.attempt() + ": " + task.payload())
                .toList().toString();
    }
}
