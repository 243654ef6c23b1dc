package io.dbqueue.queue;

import java.util.List;

/** Fans every callback out to several listeners; see {@link QueueListener#composite}. */
final class CompositeListener implements QueueListener {

    private final List<QueueListener> listeners;

    CompositeListener(List<QueueListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void enqueued(QueueLocation queue, int count) {
        listeners.forEach(l -> l.enqueued(queue, count));
    }

    @Override
    public void picked(QueueLocation queue, List<Task> tasks, long claimNanos) {
        listeners.forEach(l -> l.picked(queue, tasks, claimNanos));
    }

    @Override
    public void started(QueueLocation queue, List<Task> tasks) {
        listeners.forEach(l -> l.started(queue, tasks));
    }

    @Override
    public void executed(QueueLocation queue, List<Task> tasks, long handlerNanos) {
        listeners.forEach(l -> l.executed(queue, tasks, handlerNanos));
    }

    @Override
    public void finished(QueueLocation queue, List<Task> tasks) {
        listeners.forEach(l -> l.finished(queue, tasks));
    }

    @Override
    public void failed(QueueLocation queue, Task task, String error, boolean deadLettered) {
        listeners.forEach(l -> l.failed(queue, task, error, deadLettered));
    }

    @Override
    public void reenqueued(QueueLocation queue, Task task) {
        listeners.forEach(l -> l.reenqueued(queue, task));
    }

    @Override
    public void crashed(QueueLocation queue, Throwable error) {
        listeners.forEach(l -> l.crashed(queue, error));
    }
}
