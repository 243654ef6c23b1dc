package io.dbqueue.spring.log;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.log.GroupConfig;
import io.dbqueue.maintenance.RetentionPolicy;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code dbq.log.*} properties: the application's topics, their retention, and the groups that read them.
 *
 * @param createTopics   Whether to create each configured topic at start-up when it does not exist.
 * @param notifyInterval At most one wakeup notification per topic per this interval; readers are woken within it
 *                       of an append.
 * @param topics         The topics, by name (the prefix of their tables: a-z, 0-9 and _).
 */
@ConfigurationProperties("dbq.log")
public record DbQueueLogProperties(@DefaultValue("true") boolean createTopics,
                                   @DefaultValue("10ms") Duration notifyInterval,
                                   Map<String, TopicProperties> topics) {

    public DbQueueLogProperties {
        topics = topics == null ? Map.of() : topics;
    }

    /**
     * One topic.
     *
     * @param partitions            Partitions of a topic created at start-up; an existing topic keeps its own.
     * @param segmentSize           Offsets per segment of a topic created at start-up: retention drops whole
     *                              segments.
     * @param retentionMaxAge       Retention: segments whose newest record is older than this are dropped; unset
     *                              keeps them by time.
     * @param retentionMaxBytes     Retention: a partition's oldest segments are dropped while it takes more bytes
     *                              than this; 0 = no limit.
     * @param retentionDropConsumed Retention: segments every group has read are dropped.
     * @param retentionInterval     How often retention runs, when any retention is set.
     * @param groups                The groups that read this topic in this application, by name; a TopicListener
     *                              bean names its group.
     */
    public record TopicProperties(@DefaultValue("4") int partitions,
                                  @DefaultValue("100000") long segmentSize,
                                  Duration retentionMaxAge,
                                  @DefaultValue("0") long retentionMaxBytes,
                                  @DefaultValue("false") boolean retentionDropConsumed,
                                  @DefaultValue("1m") Duration retentionInterval,
                                  Map<String, GroupProperties> groups) {

        public TopicProperties {
            groups = groups == null ? Map.of() : groups;
        }

        /** The retention to run on this topic, if any is set. */
        Optional<RetentionPolicy> retention() {
            return retentionMaxAge != null || retentionMaxBytes > 0 || retentionDropConsumed
                    ? Optional.of(new RetentionPolicy(retentionMaxAge, retentionMaxBytes, retentionDropConsumed))
                    : Optional.empty();
        }

        /** How this application's members of {@code group} read: as configured, else the defaults. */
        GroupProperties group(String group) {
            return groups.getOrDefault(group, GroupProperties.DEFAULT);
        }
    }

    /**
     * How this application's members of one group read.
     *
     * @param mode         Delivery: at-least-once commits after the listener, at-most-once before, exactly-once in
     *                     the transaction of the batch's connection (RecordBatch.connection(), not Spring's).
     * @param members      Members this application runs in the group, each a thread holding some of the partitions.
     * @param batchSize    Records a member reads from a partition at once.
     * @param lease        How long a partition stays with a member that stopped renewing it.
     * @param pollInterval How long an idle member waits before reading again unless woken by an append's
     *                     notification.
     * @param startFrom    Where a group that has never read the topic starts.
     */
    public record GroupProperties(@DefaultValue("at-least-once") DeliveryMode mode,
                                  @DefaultValue("1") int members,
                                  @DefaultValue("200") int batchSize,
                                  @DefaultValue("10s") Duration lease,
                                  @DefaultValue("1s") Duration pollInterval,
                                  @DefaultValue("earliest") GroupConfig.StartFrom startFrom) {

        /** A group that is not configured: every value its default. */
        static final GroupProperties DEFAULT = new Binder().bindOrCreate("dbq", GroupProperties.class);

        GroupConfig config(String topic, String group) {
            return GroupConfig.of(topic, group).withMode(mode).withBatchSize(batchSize).withLease(lease)
                    .withPollInterval(pollInterval).withStartFrom(startFrom);
        }
    }
}
