package io.dbqueue.log;

import io.dbqueue.wakeup.ChannelListener;

/**
 * Wakes idle group members when a producer made {@link TopicProducer#withWakeups} appends to a
 * partition they hold, so that a topic read by idle members costs a poll now and then and a fresh
 * message is still read within milliseconds. A notification names the partition, so only its
 * holders (one member per group) wake, not every member of the topic. The door's one connection
 * listens for every {@link #add added} member ({@link ChannelListener}); after a reconnect every member is woken.
 */
public final class LogWakeups implements AutoCloseable {

    private final ChannelListener listener;

    private LogWakeups(ChannelListener listener) {
        this.listener = listener;
    }

    /** Wakeups on a connection shared with others ({@code DbQueue}'s); closing either closes both. */
    public static LogWakeups on(ChannelListener listener) {
        return new LogWakeups(listener);
    }

    /** Wakes {@code member} too; returns once listening for it (or at once while not listening). */
    public void add(GroupConsumer member) {
        String channel = LogSql.channel(member.topic().name());
        for (int p = 0; p < member.topic().partitions(); p++) {
            int partition = p;
            listener.on(channel, Integer.toString(p), member::isAlive, () -> {
                if (member.partitions().contains(partition)) {
                    member.wakeup();
                }
            });
        }
        listener.awaitChannels();
        // The member started, and may have read nothing, before this listened: what producers appended meanwhile
        // notified nobody, so it reads once more, as after a reconnect.
        member.wakeup();
    }

    public boolean isListening() {
        return listener.isListening();
    }

    @Override
    public void close() {
        listener.close();
    }
}
