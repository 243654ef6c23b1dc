package io.dbqueue.queue;

import io.dbqueue.internal.ChannelListener;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Wakes idle workers when a {@link QueueNotifier} says their queue has new tasks, so that consumers
 * can poll rarely (a long no-task timeout) and still pick up new work within milliseconds. One
 * connection listens on the channels of the given workers' tables ({@link ChannelListener}); after
 * a reconnect every worker is woken, since notifications sent in between are lost. Polling stays
 * the guarantee; wakeups only cut the wait.
 */
public final class QueueWakeups implements AutoCloseable {

    private final ChannelListener listener;

    private QueueWakeups(ChannelListener listener) {
        this.listener = listener;
    }

    /**
     * Starts listening for the queues of {@code workers}. Returns once listening, or once the first
     * attempt has failed (it is retried in the background), or after 10 seconds.
     */
    public static QueueWakeups start(DataSource dataSource, Collection<QueueWorkers> workers) {
        Map<String, Map<String, List<Runnable>>> byChannelAndQueue = new HashMap<>();
        for (QueueWorkers w : workers) {
            QueueLocation q = w.config().location();
            byChannelAndQueue.computeIfAbsent(WakeupChannel.of(q.table()), c -> new HashMap<>())
                    .computeIfAbsent(q.queueName(), n -> new ArrayList<>()).add(w::wakeup);
        }
        return new QueueWakeups(ChannelListener.start(dataSource, byChannelAndQueue, "dbq-wakeups"));
    }

    /** Whether the LISTEN session is established right now. */
    public boolean isListening() {
        return listener.isListening();
    }

    /** Stops listening; the workers go on polling. */
    @Override
    public void close() {
        listener.close();
    }
}
