package io.dbqueue.spring.log;

import io.dbqueue.common.Cached;
import io.dbqueue.log.GroupLag;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * {@code dbq.log.lag} (records appended and not yet committed, per topic, group and partition) for the groups this
 * application configures or listens in, read at most once per topic every few seconds ({@link Cached}; 0 until the
 * group has joined). {@code dbq.log.behind.retention} is 1 where retention removed records the group has not read.
 */
public final class TopicLagGauges {

    public TopicLagGauges(MeterRegistry registry, DbQueueTopics topics, Map<String, Set<String>> groupsByTopic) {
        groupsByTopic.forEach((topic, groups) -> {
            Cached<List<GroupLag>> lags = new Cached<>(() -> topics.admin(topic).lag());
            int partitions = topics.describe(topic).partitions();
            for (String group : groups) {
                for (int p = 0; p < partitions; p++) {
                    int partition = p;
                    String[] tags = {"topic", topic, "group", group, "partition", Integer.toString(partition)};
                    Gauge.builder("dbq.log.lag", lags, l -> now(l, group, partition, GroupLag::lag))
                            .description("Records appended to the partition and not yet committed by the group")
                            .tags(tags).strongReference(true).register(registry);
                    Gauge.builder("dbq.log.behind.retention", lags,
                                    l -> now(l, group, partition, lag -> lag.behindRetention() ? 1 : 0))
                            .description("1 when retention removed records of the partition that the group has not read")
                            .tags(tags).strongReference(true).register(registry);
                }
            }
        });
    }

    /**
     * The partition's figure from the lags read at hand, without waiting: NaN while none is (the read goes on, and the
     * next scrape shows it). Waited for, each gauge of a scrape waited up to a second while the database did not
     * answer, and a scrape of many outlasted Prometheus' timeout, losing every other metric with it.
     */
    private static double now(Cached<List<GroupLag>> lags, String group, int partition, ToDoubleFunction<GroupLag> figure) {
        try {
            return figure.applyAsDouble(lags.getNow().stream()
                    .filter(l -> l.group().equals(group) && l.partition() == partition).findFirst()
                    .orElse(new GroupLag(group, partition, 0, 0, 0, null)));
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }
}
