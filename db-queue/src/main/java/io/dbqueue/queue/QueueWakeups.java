package io.dbqueue.queue;

import io.dbqueue.wakeup.ChannelListener;
import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Wakes idle workers when a {@link QueueNotifier} says their queue has new tasks, so that consumers
 * can poll rarely (a long no-task timeout) and still pick up new work within milliseconds. One
 * connection listens on the channels of the given workers' tables ({@link ChannelListener}); each
 * notification wakes one idle worker of the queue ({@link QueueWorkers#notified()}); after a
 * reconnect one worker per queue is woken as if notified (a full claim brings in more), since
 * notifications sent in between are lost. Polling stays the guarantee; wakeups only cut the wait.
 *
 * <p>The connection announces which tables' channels its workers want notifications on right now
 * ({@link QueueWorkers#wantsNotifications()}); producers' notifiers send none on a channel nobody
 * wants, so {@link Wakeup#ADAPTIVE} workers that are saturated, or workers that only poll, cost the
 * producers nothing, as long as no other queue of the same table wants notifications.
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
        List<QueueWorkers> all = List.copyOf(workers);
        Map<String, Map<String, List<Runnable>>> byChannelAndQueue = new HashMap<>();
        for (QueueWorkers w : all) {
            for (QueueLocation q : w.locations()) {
                byChannelAndQueue.computeIfAbsent(WakeupChannel.of(q.table()), c -> new HashMap<>())
                        .computeIfAbsent(q.queueName(), n -> new ArrayList<>()).add(() -> w.notified(q));
            }
        }
        Supplier<Set<String>> wanted = () -> {
            Set<String> channels = new HashSet<>();
            for (QueueWorkers w : all) {
                if (w.wantsNotifications()) {
                    channels.add(WakeupChannel.of(w.config().location().table()));
                }
            }
            return channels;
        };
        return new QueueWakeups(ChannelListener.start(dataSource, byChannelAndQueue, wanted, "dbq-wakeups"));
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
