package io.dbqueue.queue;

import java.util.List;

/**
 * Observes a queue without touching its internals: metrics, tracing and the lab implement it.
 * Callbacks run on the worker or producer thread and must be quick; an exception they throw is
 * logged and ignored.
 */
public interface QueueListener {

    QueueListener NONE = new QueueListener() {
    };

    /** One listener that calls each of {@code listeners} in order; one that throws does not stop the others. */
    static QueueListener composite(List<QueueListener> listeners) {
        return new CompositeListener(listeners.stream().map(SafeListener::wrap).toList());
    }

    /** Tasks were written: committed, or part of the caller's open transaction for the Connection variants. */
    default void enqueued(QueueLocation queue, int count) {
    }

    /** A claim returned {@code tasks} (possibly none) after {@code claimNanos}. */
    default void picked(QueueLocation queue, List<Task> tasks, long claimNanos) {
    }

    /** The handler is about to receive {@code tasks}. */
    default void started(QueueLocation queue, List<Task> tasks) {
    }

    /** The handler returned or threw after {@code handlerNanos}. */
    default void executed(QueueLocation queue, List<Task> tasks, long handlerNanos) {
    }

    /** These tasks completed and were removed from the queue (committed). */
    default void finished(QueueLocation queue, List<Task> tasks) {
    }

    /** A task failed; it will be retried, or it moved to the dead letters. */
    default void failed(QueueLocation queue, Task task, String error, boolean deadLettered) {
    }

    /** A handler asked for {@code task} to run again later. */
    default void reenqueued(QueueLocation queue, Task task) {
    }

    /** A worker cycle failed outside the handler (database gone, ...); the worker backs off and goes on. */
    default void crashed(QueueLocation queue, Throwable error) {
    }
}
