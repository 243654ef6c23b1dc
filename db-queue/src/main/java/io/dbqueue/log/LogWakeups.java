package io.dbqueue.log;

import io.dbqueue.internal.ChannelListener;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Wakes idle group members when a producer made {@link TopicProducer#withWakeups} appends to their
 * topic, so that a topic read by idle members costs a poll now and then and a fresh message is
 * still read within milliseconds. One connection listens for all the given members
 * ({@link ChannelListener}); after a reconnect every member is woken.
 */
public final class LogWakeups implements AutoCloseable {

    private final ChannelListener listener;

    private LogWakeups(ChannelListener listener) {
        this.listener = listener;
    }

    public static LogWakeups start(DataSource dataSource, Collection<GroupConsumer> members) {
        Map<String, Map<String, List<Runnable>>> byChannel = new HashMap<>();
        for (GroupConsumer member : members) {
            String topic = member.config().topic();
            byChannel.computeIfAbsent(LogSql.channel(topic), c -> new HashMap<>())
                    .computeIfAbsent(topic, t -> new ArrayList<>()).add(member::wakeup);
        }
        return new LogWakeups(ChannelListener.start(dataSource, byChannel, "dbq-log-wakeups"));
    }

    public boolean isListening() {
        return listener.isListening();
    }

    @Override
    public void close() {
        listener.close();
    }
}
