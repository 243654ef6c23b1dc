package io.dbqueue.log;

import io.dbqueue.internal.ListenerCalls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;

/**
 * Shields a group member from its listener: an exception or an error in a callback is logged, never propagated.
 * Thrown through, one rolled back an exactly-once batch whose handler had run (on every retry), lost an at-most-once batch whose
 * offset was committed, or, from {@code crashed}, ended the member's thread without leaving the group.
 */
final class SafeLogListener implements LogListener {

    private static final Logger LOG = LoggerFactory.getLogger(SafeLogListener.class);

    private final LogListener delegate;

    private SafeLogListener(LogListener delegate) {
        this.delegate = delegate;
    }

    static LogListener wrap(LogListener listener) {
        return listener == LogListener.NONE || listener instanceof SafeLogListener ? listener
                : new SafeLogListener(listener);
    }

    private void guard(String callback, Runnable call) {
        ListenerCalls.guard(LOG, delegate, callback, call);
    }

    @Override
    public void consumed(String topic, String group, int partition, int records, long lag) {
        guard("consumed", () -> delegate.consumed(topic, group, partition, records, lag));
    }

    @Override
    public void assigned(String topic, String group, Set<Integer> partitions) {
        guard("assigned", () -> delegate.assigned(topic, group, partitions));
    }

    @Override
    public void behindRetention(String topic, String group, int partition, GroupBehindRetentionException e) {
        guard("behindRetention", () -> delegate.behindRetention(topic, group, partition, e));
    }

    @Override
    public void crashed(String topic, String group, Exception e) {
        guard("crashed", () -> delegate.crashed(topic, group, e));
    }
}
