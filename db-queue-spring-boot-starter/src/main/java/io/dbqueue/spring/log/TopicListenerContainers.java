package io.dbqueue.spring.log;

import io.dbqueue.DbQueue;
import io.dbqueue.log.GroupConsumer;
import io.dbqueue.spring.DbQueueAutoConfiguration;
import io.dbqueue.spring.DbQueueLifecycle;
import io.dbqueue.spring.InvalidConsumerException;
import io.dbqueue.spring.InvalidQueuePropertyException;
import org.springframework.beans.factory.ObjectProvider;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the members of every {@link TopicListener} bean's group through the {@link DbQueue}; stopping, each member
 * finishes and commits its batch (within {@code dbq.shutdown-timeout}) and leaves its group, so its partitions move
 * at once.
 */
public final class TopicListenerContainers extends DbQueueLifecycle {

    private final DbQueue door;
    private final DbQueueLogProperties properties;
    private final ObjectProvider<TopicListener> listeners;
    private final Duration shutdownTimeout;
    private final List<GroupConsumer> members = new ArrayList<>();

    public TopicListenerContainers(DbQueue door, DbQueueLogProperties properties,
                                   ObjectProvider<TopicListener> listeners, Duration shutdownTimeout,
                                   boolean autoStartup) {
        super(autoStartup, DbQueueAutoConfiguration.PHASE);
        this.door = door;
        this.properties = properties;
        this.listeners = listeners;
        this.shutdownTimeout = shutdownTimeout;
        // At start-up, not when the members start: with auto-startup off that came later, and the core's own
        // message ("batchSize must be ...") named no property.
        properties.topics().forEach((topic, t) -> t.groups().forEach((group, read) -> {
            String prefix = "dbq.log.topics." + topic + ".groups." + group;
            if (read.members() < 1) {
                throw new InvalidQueuePropertyException(prefix + ".members must be at least 1, was " + read.members());
            }
            InvalidQueuePropertyException.check(prefix, () -> read.config(topic, group));
        }));
    }

    @Override
    protected void doStart() {
        List<TopicListener> all = listeners.orderedStream().toList();
        for (TopicListener listener : all) {
            if (!properties.topics().containsKey(listener.topic())) {
                throw new InvalidConsumerException("TopicListener " + listener.getClass().getName() + " reads topic '"
                        + listener.topic() + "', which is not configured: add dbq.log.topics." + listener.topic()
                        + ".partitions");
            }
        }
        for (TopicListener listener : all) {
            DbQueueLogProperties.GroupProperties group = properties.topics().get(listener.topic()).group(listener.group());
            for (int m = 0; m < group.members(); m++) {
                members.add(door.consumeTopic(group.config(listener.topic(), listener.group()), listener));
            }
        }
    }

    @Override
    protected void doStop() {
        GroupConsumer.shutdownAll(members, shutdownTimeout);
        members.clear();
    }

    /** The members running now. */
    public synchronized List<GroupConsumer> members() {
        return List.copyOf(members);
    }
}
