package io.dbqueue.log;

import io.dbqueue.common.Checks;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.Identifiers;
import io.dbqueue.common.InvalidValueException;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * How a member of a consumer group reads a topic.
 *
 * @param batchSize    records read from a partition at once
 * @param lease        how long a partition stays with a member that stops renewing it (heartbeats
 *                     renew it every third of the lease); a dead member's partitions move after this
 * @param pollInterval how long an idle member waits before reading again, unless woken ({@link LogWakeups})
 * @param startFrom    where a group that has never read the topic starts
 * @param memberId     this member's id in the group; unique per member
 */
public record GroupConfig(String topic, String group, DeliveryMode mode, int batchSize, Duration lease,
                          Duration pollInterval, StartFrom startFrom, String memberId) {

    public static final int MAX_BATCH_SIZE = 10_000;

    /** Where a group starts on a topic it has never read. */
    public enum StartFrom { EARLIEST, LATEST }

    public GroupConfig {
        Identifiers.topicName("topic", topic);
        Identifiers.groupName("group", group);
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(startFrom, "startFrom");
        Identifiers.groupName("memberId", memberId);
        if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
            throw new InvalidValueException("batchSize", "must be 1 to " + MAX_BATCH_SIZE, batchSize);
        }
        if (lease == null || lease.compareTo(Duration.ofMillis(300)) < 0) {
            throw new InvalidValueException("lease", "must be at least 300 ms", lease);
        }
        Checks.atMostLongest("lease", lease);
        Checks.positive("pollInterval", pollInterval);
    }

    /** At least once, batches of 200, a 10 s lease, polling every 100 ms, from the earliest offset. */
    public static GroupConfig of(String topic, String group) {
        return new GroupConfig(topic, group, DeliveryMode.AT_LEAST_ONCE, 200, Duration.ofSeconds(10),
                Duration.ofMillis(100), StartFrom.EARLIEST, generatedMemberId(group));
    }

    /** The group's name, shortened to leave room, and a random UUID: unique, and named after the group. */
    private static String generatedMemberId(String group) {
        if (group == null) {
            return null; // refused as the group's
        }
        String suffix = "-" + UUID.randomUUID();
        return group.substring(0, Math.min(group.length(), Identifiers.MAX_QUEUE_NAME_LENGTH - suffix.length())) + suffix;
    }

    public GroupConfig withMode(DeliveryMode mode) {
        return new GroupConfig(topic, group, mode, batchSize, lease, pollInterval, startFrom, memberId);
    }

    public GroupConfig withBatchSize(int batchSize) {
        return new GroupConfig(topic, group, mode, batchSize, lease, pollInterval, startFrom, memberId);
    }

    public GroupConfig withLease(Duration lease) {
        return new GroupConfig(topic, group, mode, batchSize, lease, pollInterval, startFrom, memberId);
    }

    public GroupConfig withPollInterval(Duration pollInterval) {
        return new GroupConfig(topic, group, mode, batchSize, lease, pollInterval, startFrom, memberId);
    }

    public GroupConfig withStartFrom(StartFrom startFrom) {
        return new GroupConfig(topic, group, mode, batchSize, lease, pollInterval, startFrom, memberId);
    }

    public GroupConfig withMemberId(String memberId) {
        return new GroupConfig(topic, group, mode, batchSize, lease, pollInterval, startFrom, memberId);
    }

    Duration heartbeatInterval() {
        return lease.dividedBy(3);
    }
}
