package io.dbqueue.spring.log;

import io.dbqueue.log.GroupLag;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code dbq.log.lag} (records appended and not yet committed, per topic, group and partition) for
 * the groups this application configures or listens in, read from the database at most once per
 * topic every 5 seconds (0 until the group has joined). {@code dbq.log.behind.retention} is 1 where
 * retention removed records the group has not read.
 */
public final class TopicLagGauges {

    private static final long MAX_AGE_NANOS = Duration.ofSeconds(5).toNanos();

    private final DbQueueTopics topics;
    private final Map<String, Snapshot> snapshots = new ConcurrentHashMap<>();

    public TopicLagGauges(MeterRegistry registry, DbQueueTopics topics, Map<String, Set<String>> groupsByTopic) {
        this.topics = topics;
        for (Map.Entry<String, Set<String>> e : groupsByTopic.entrySet()) {
            String topic = e.getKey();
            int partitions = topics.describe(topic).partitions();
            for (String group : e.getValue()) {
                for (int p = 0; p < partitions; p++) {
                    register(registry, topic, group, p);
                }
            }
        }
    }

    private void register(MeterRegistry registry, String topic, String group, int partition) {
        String[] tags = {"topic", topic, "group", group, "partition", Integer.toString(partition)};
        Gauge.builder("dbq.log.lag", this, g -> g.find(topic, group, partition).lag())
                .description("Records appended to the partition and not yet committed by the group")
                .tags(tags).register(registry);
        Gauge.builder("dbq.log.behind.retention", this, g -> g.find(topic, group, partition).behindRetention() ? 1 : 0)
                .description("1 when retention removed records of the partition that the group has not read")
                .tags(tags).register(registry);
    }

    private GroupLag find(String topic, String group, int partition) {
        return read(topic).stream().filter(l -> l.group().equals(group) && l.partition() == partition).findFirst()
                .orElse(new GroupLag(group, partition, 0, 0, 0, null));
    }

    private List<GroupLag> read(String topic) {
        long now = System.nanoTime();
        Snapshot snapshot = snapshots.get(topic);
        if (snapshot == null || now - snapshot.readAt() >= MAX_AGE_NANOS) {
            snapshot = new Snapshot(topics.admin(topic).lag(), now);
            snapshots.put(topic, snapshot);
        }
        return snapshot.lags();
    }

    private record Snapshot(List<GroupLag> lags, long readAt) {
    }
}
