package io.dbqueue.spring.log;

import io.dbqueue.DbQueue;
import io.dbqueue.log.GroupConsumer;
import io.dbqueue.spring.DbQueueLifecycle;
import org.springframework.beans.factory.ObjectProvider;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts the members of every {@link TopicListener} bean's group through the {@link DbQueue} when the application
 * context starts; stops them when it stops (each finishes and commits its batch, within
 * {@code dbq.shutdown-timeout}) and leaves its group, so its partitions move at once.
 */
public final class TopicListenerContainers implements DbQueueLifecycle {

    private final DbQueue door;
    private final DbQueueLogProperties properties;
    private final ObjectProvider<TopicListener> listeners;
    private final Duration shutdownTimeout;
    private final boolean autoStartup;
    private final List<GroupConsumer> members = new ArrayList<>();
    private volatile boolean running;

    public TopicListenerContainers(DbQueue door, DbQueueLogProperties properties,
                                   ObjectProvider<TopicListener> listeners, Duration shutdownTimeout,
                                   boolean autoStartup) {
        this.door = door;
        this.properties = properties;
        this.listeners = listeners;
        this.shutdownTimeout = shutdownTimeout;
        this.autoStartup = autoStartup;
    }

    /** Checks every listener before starting any member; if a start fails, stops what it had started. */
    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        List<TopicListener> all = listeners.orderedStream().toList();
        for (TopicListener listener : all) {
            if (!properties.topics().containsKey(listener.topic())) {
                throw new IllegalStateException("TopicListener " + listener.getClass().getName() + " reads topic '"
                        + listener.topic() + "', which is not configured: add dbq.log.topics." + listener.topic()
                        + ".partitions");
            }
        }
        try {
            for (TopicListener listener : all) {
                DbQueueLogProperties.GroupProperties group = properties.topics().get(listener.topic())
                        .group(listener.group());
                for (int m = 0; m < group.members(); m++) {
                    members.add(door.consumeTopic(group.config(listener.topic(), listener.group()), listener));
                }
            }
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
        running = true;
    }

    @Override
    public synchronized void stop() {
        GroupConsumer.shutdownAll(members, shutdownTimeout);
        members.clear();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public boolean isAutoStartup() {
        return autoStartup;
    }

    /** The members running now, for health and tests. */
    public synchronized List<GroupConsumer> members() {
        return List.copyOf(members);
    }
}
