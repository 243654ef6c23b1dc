package io.dbqueue.log;

import io.dbqueue.wakeup.ChannelListener;
import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Wakes idle group members when a producer made {@link TopicProducer#withWakeups} appends to a
 * partition they hold, so that a topic read by idle members costs a poll now and then and a fresh
 * message is still read within milliseconds. A notification names the partition, so only its
 * holders (one member per group) wake, not every member of the topic. One connection listens for
 * all the given members ({@link ChannelListener}); after a reconnect every member is woken.
 */
public final class LogWakeups implements AutoCloseable {

    private final ChannelListener listener;

    private LogWakeups(ChannelListener listener) {
        this.listener = listener;
    }

    public static LogWakeups start(DataSource dataSource, Collection<GroupConsumer> members) {
        Map<String, Map<String, List<Runnable>>> byChannel = new HashMap<>();
        for (GroupConsumer member : members) {
            Map<String, List<Runnable>> byPartition = byChannel.computeIfAbsent(
                    LogSql.channel(member.topic().name()), c -> new HashMap<>());
            for (int p = 0; p < member.topic().partitions(); p++) {
                int partition = p;
                byPartition.computeIfAbsent(Integer.toString(p), k -> new ArrayList<>()).add(() -> {
                    if (member.partitions().contains(partition)) {
                        member.wakeup();
                    }
                });
            }
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
