package io.dbqueue.spring.log;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.log.GroupConfig;
import io.dbqueue.log.Topic;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code dbq.log.*} properties: the application's topics, their retention, and the groups that read them. */
@ConfigurationProperties("dbq.log")
public class DbQueueLogProperties {

    /** Whether to create each configured topic at start-up when it does not exist. */
    private boolean createTopics = true;

    /** At most one wakeup notification per topic per this interval; readers are woken within it of an append. */
    private Duration notifyInterval = Duration.ofMillis(10);

    /** The topics, by name (the prefix of their tables: a-z, 0-9 and _). */
    private Map<String, TopicProperties> topics = new LinkedHashMap<>();

    public boolean isCreateTopics() {
        return createTopics;
    }

    public void setCreateTopics(boolean createTopics) {
        this.createTopics = createTopics;
    }

    public Duration getNotifyInterval() {
        return notifyInterval;
    }

    public void setNotifyInterval(Duration notifyInterval) {
        this.notifyInterval = notifyInterval;
    }

    public Map<String, TopicProperties> getTopics() {
        return topics;
    }

    public void setTopics(Map<String, TopicProperties> topics) {
        this.topics = topics;
    }

    /** One topic. */
    public static class TopicProperties {

        /** Partitions of a topic created at start-up; an existing topic keeps its own. */
        private int partitions = 4;

        /** Offsets per segment of a topic created at start-up: retention drops whole segments. */
        private long segmentSize = Topic.DEFAULT_SEGMENT_SIZE;

        /** Retention: segments whose newest record is older than this are dropped; unset keeps them by time. */
        private Duration retentionMaxAge;

        /** Retention: a partition's oldest segments are dropped while it takes more bytes than this; 0 = no limit. */
        private long retentionMaxBytes;

        /** Retention: segments every group has read are dropped. */
        private boolean retentionDropConsumed;

        /** How often retention runs, when any retention is set. */
        private Duration retentionInterval = Duration.ofMinutes(1);

        /** The groups that read this topic in this application, by name; a TopicListener bean names its group. */
        private Map<String, GroupProperties> groups = new LinkedHashMap<>();

        public int getPartitions() {
            return partitions;
        }

        public void setPartitions(int partitions) {
            this.partitions = partitions;
        }

        public long getSegmentSize() {
            return segmentSize;
        }

        public void setSegmentSize(long segmentSize) {
            this.segmentSize = segmentSize;
        }

        public Duration getRetentionMaxAge() {
            return retentionMaxAge;
        }

        public void setRetentionMaxAge(Duration retentionMaxAge) {
            this.retentionMaxAge = retentionMaxAge;
        }

        public long getRetentionMaxBytes() {
            return retentionMaxBytes;
        }

        public void setRetentionMaxBytes(long retentionMaxBytes) {
            this.retentionMaxBytes = retentionMaxBytes;
        }

        public boolean isRetentionDropConsumed() {
            return retentionDropConsumed;
        }

        public void setRetentionDropConsumed(boolean retentionDropConsumed) {
            this.retentionDropConsumed = retentionDropConsumed;
        }

        public Duration getRetentionInterval() {
            return retentionInterval;
        }

        public void setRetentionInterval(Duration retentionInterval) {
            this.retentionInterval = retentionInterval;
        }

        public Map<String, GroupProperties> getGroups() {
            return groups;
        }

        public void setGroups(Map<String, GroupProperties> groups) {
            this.groups = groups;
        }
    }

    /** How this application's members of one group read. */
    public static class GroupProperties {

        /** Delivery: at-least-once commits after the listener, at-most-once before, exactly-once in its transaction. */
        private DeliveryMode mode = DeliveryMode.AT_LEAST_ONCE;

        /** Members this application runs in the group, each a thread holding some of the partitions. */
        private int members = 1;

        /** Records a member reads from a partition at once. */
        private int batchSize = 200;

        /** How long a partition stays with a member that stopped renewing it. */
        private Duration lease = Duration.ofSeconds(10);

        /** How long an idle member waits before reading again unless woken by an append's notification. */
        private Duration pollInterval = Duration.ofSeconds(1);

        /** Where a group that has never read the topic starts. */
        private GroupConfig.StartFrom startFrom = GroupConfig.StartFrom.EARLIEST;

        public DeliveryMode getMode() {
            return mode;
        }

        public void setMode(DeliveryMode mode) {
            this.mode = mode;
        }

        public int getMembers() {
            return members;
        }

        public void setMembers(int members) {
            this.members = members;
        }

        public int getBatchSize() {
            return batchSize;
        }

        public void setBatchSize(int batchSize) {
            this.batchSize = batchSize;
        }

        public Duration getLease() {
            return lease;
        }

        public void setLease(Duration lease) {
            this.lease = lease;
        }

        public Duration getPollInterval() {
            return pollInterval;
        }

        public void setPollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
        }

        public GroupConfig.StartFrom getStartFrom() {
            return startFrom;
        }

        public void setStartFrom(GroupConfig.StartFrom startFrom) {
            this.startFrom = startFrom;
        }
    }
}
