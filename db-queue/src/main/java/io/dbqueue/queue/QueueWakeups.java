package io.dbqueue.queue;

import io.dbqueue.wakeup.ChannelListener;
import javax.sql.DataSource;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Wakes idle workers when a {@link QueueNotifier} says their queue has new tasks, so that consumers
 * can poll rarely (a long no-task timeout) and still pick up new work within milliseconds. One
 * connection listens on the channels of the given (or {@link #add added}) workers' tables ({@link ChannelListener}); each
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
    private final List<QueueWorkers> workers = new CopyOnWriteArrayList<>();

    private QueueWakeups(ChannelListener listener) {
        this.listener = listener;
        listener.announce(this::wanted);
    }

    /**
     * Starts listening for the queues of {@code workers}. Returns once listening, or once the first
     * attempt has failed (it is retried in the background), or after 10 seconds.
     */
    public static QueueWakeups start(DataSource dataSource, Collection<QueueWorkers> workers) {
        QueueWakeups wakeups = new QueueWakeups(ChannelListener.start(dataSource, "dbq-wakeups"));
        workers.forEach(wakeups::add);
        return wakeups;
    }

    /** Wakeups on a connection shared with others ({@code DbQueue}'s); closing either closes both. */
    public static QueueWakeups on(ChannelListener listener) {
        return new QueueWakeups(listener);
    }

    /** Wakes {@code added}'s idle workers too; returns once listening for them (or as {@link #start} does). */
    public void add(QueueWorkers added) {
        for (QueueLocation q : added.locations()) {
            listener.on(WakeupChannel.of(q.table()), q.queueName(), added::isRunning, () -> added.notified(q));
        }
        workers.add(added); // announced only now: its channels are LISTENed to once the above is taken up
        listener.awaitChannels();
        // The workers started, and may have found nothing, before this listened: what producers enqueued meanwhile
        // notified nobody, so they look once more, as after a reconnect.
        added.locations().forEach(added::notified);
    }

    private Set<String> wanted() {
        workers.removeIf(w -> !w.isRunning()); // shut down: they want nothing, and a notification has no one to wake
        Set<String> channels = new HashSet<>();
        for (QueueWorkers w : workers) {
            if (w.wantsNotifications()) {
                channels.add(WakeupChannel.of(w.config().location().table()));
            }
        }
        return channels;
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
