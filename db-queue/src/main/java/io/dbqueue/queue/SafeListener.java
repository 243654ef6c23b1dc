package io.dbqueue.queue;

import io.dbqueue.internal.ListenerCalls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Shields the queue from its listeners: an exception or an error in a callback is logged, never propagated. Thrown
 * through {@code picked}, an error ended the worker and lost the at-most-once batch it had just claimed.
 */
final class SafeListener implements QueueListener {

    private static final Logger LOG = LoggerFactory.getLogger(SafeListener.class);

    private final QueueListener delegate;

    private SafeListener(QueueListener delegate) {
        this.delegate = delegate;
    }

    static QueueListener wrap(QueueListener listener) {
        return listener == QueueListener.NONE || listener instanceof SafeListener ? listener : new SafeListener(listener);
    }

    private void guard(String callback, Runnable call) {
        ListenerCalls.guard(LOG, delegate, callback, call);
    }

    @Override
    public void enqueued(QueueLocation queue, int count) {
        guard("enqueued", () -> delegate.enqueued(queue, count));
    }

    @Override
    public void picked(QueueLocation queue, List<Task> tasks, long claimNanos) {
        guard("picked", () -> delegate.picked(queue, tasks, claimNanos));
    }

    @Override
    public void started(QueueLocation queue, List<Task> tasks) {
        guard("started", () -> delegate.started(queue, tasks));
    }

    @Override
    public void executed(QueueLocation queue, List<Task> tasks, long handlerNanos) {
        guard("executed", () -> delegate.executed(queue, tasks, handlerNanos));
    }

    @Override
    public void finished(QueueLocation queue, List<Task> tasks) {
        guard("finished", () -> delegate.finished(queue, tasks));
    }

    @Override
    public void failed(QueueLocation queue, Task task, String error, boolean deadLettered) {
        guard("failed", () -> delegate.failed(queue, task, error, deadLettered));
    }

    @Override
    public void reenqueued(QueueLocation queue, Task task) {
        guard("reenqueued", () -> delegate.reenqueued(queue, task));
    }

    @Override
    public void crashed(QueueLocation queue, Throwable error) {
        guard("crashed", () -> delegate.crashed(queue, error));
    }
}
