package io.dbqueue.spring.log;

import io.dbqueue.log.GroupConfig;
import io.dbqueue.log.GroupConsumer;
import io.dbqueue.log.LogListener;
import io.dbqueue.maintenance.LogRetention;
import io.dbqueue.log.LogWakeups;
import io.dbqueue.maintenance.RetentionPolicy;
import io.dbqueue.spring.DbQueueLifecycle;
import org.springframework.beans.factory.ObjectProvider;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts the members of every {@link TopicListener} bean's group, one wakeup connection for them,
 * and the retention of every topic that has one, when the application context starts; stops them
 * when it stops, members first (each finishes and commits its batch, within
 * {@code dbq.shutdown-timeout}) and leaves its group, so its partitions move at once.
 */
public final class TopicListenerContainers implements DbQueueLifecycle {

    private final DataSource dataSource;
    private final DbQueueLogProperties properties;
    private final ObjectProvider<TopicListener> listeners;
    private final LogListener logListener;
    private final Duration shutdownTimeout;
    private final boolean autoStartup;
    private final List<GroupConsumer> members = new ArrayList<>();
    private final List<LogRetention> retentions = new ArrayList<>();
    private LogWakeups wakeups;
    private volatile boolean running;

    public TopicListenerContainers(DataSource dataSource, DbQueueLogProperties properties,
                                   ObjectProvider<TopicListener> listeners, LogListener logListener,
                                   Duration shutdownTimeout, boolean autoStartup) {
        this.dataSource = dataSource;
        this.properties = properties;
        this.listeners = listeners;
        this.logListener = logListener;
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
            if (!properties.getTopics().containsKey(listener.topic())) {
                throw new IllegalStateException("TopicListener " + listener.getClass().getName() + " reads topic '"
                        + listener.topic() + "', which is not configured: add dbq.log.topics." + listener.topic()
                        + ".partitions");
            }
        }
        try {
            startAll(all);
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
        running = true;
    }

    private void startAll(List<TopicListener> all) {
        for (TopicListener listener : all) {
            DbQueueLogProperties.GroupProperties group = properties.getTopics().get(listener.topic()).getGroups()
                    .getOrDefault(listener.group(), new DbQueueLogProperties.GroupProperties());
            for (int m = 0; m < group.getMembers(); m++) {
                members.add(GroupConsumer.start(dataSource, config(listener, group), listener, logListener));
            }
        }
        if (!members.isEmpty()) {
            wakeups = LogWakeups.start(dataSource, members);
        }
        for (Map.Entry<String, DbQueueLogProperties.TopicProperties> e : properties.getTopics().entrySet()) {
            DbQueueLogProperties.TopicProperties t = e.getValue();
            if (t.getRetentionMaxAge() != null || t.getRetentionMaxBytes() > 0 || t.isRetentionDropConsumed()) {
                RetentionPolicy policy = new RetentionPolicy(t.getRetentionMaxAge(), t.getRetentionMaxBytes(),
                        t.isRetentionDropConsumed());
                retentions.add(LogRetention.start(dataSource, e.getKey(), policy, t.getRetentionInterval()));
            }
        }
    }

    private static GroupConfig config(TopicListener listener, DbQueueLogProperties.GroupProperties group) {
        return GroupConfig.of(listener.topic(), listener.group()).withMode(group.getMode())
                .withBatchSize(group.getBatchSize()).withLease(group.getLease())
                .withPollInterval(group.getPollInterval()).withStartFrom(group.getStartFrom());
    }

    @Override
    public synchronized void stop() {
        retentions.forEach(LogRetention::close);
        retentions.clear();
        if (wakeups != null) {
            wakeups.close();
            wakeups = null;
        }
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
