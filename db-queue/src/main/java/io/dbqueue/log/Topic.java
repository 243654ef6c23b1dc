package io.dbqueue.log;

import io.dbqueue.common.Identifiers;
import io.dbqueue.common.InvalidValueException;

/**
 * A log topic: {@code partitions} partitions, each an append-only table with gapless offsets from
 * 0, split into segments of {@code segmentSize} offsets that retention drops whole.
 */
public record Topic(String name, int partitions, long segmentSize) {

    public static final int MAX_PARTITIONS = 1024;
    public static final long DEFAULT_SEGMENT_SIZE = 100_000;
    /** Far beyond any useful segment, and far from the end of a bigint range of offsets. */
    public static final long MAX_SEGMENT_SIZE = 1_000_000_000_000L;

    public Topic {
        Identifiers.topicName("name", name);
        if (partitions < 1 || partitions > MAX_PARTITIONS) {
            throw new InvalidValueException("partitions", "must be 1 to " + MAX_PARTITIONS, partitions);
        }
        if (segmentSize < 1_000 || segmentSize > MAX_SEGMENT_SIZE) {
            throw new InvalidValueException("segmentSize", "must be 1000 to " + MAX_SEGMENT_SIZE + " offsets",
                    segmentSize);
        }
    }

    public static Topic of(String name, int partitions) {
        return new Topic(name, partitions, DEFAULT_SEGMENT_SIZE);
    }

    /** Throws naming the partition and the topic's range unless {@code partition} is one of this topic's. */
    /** The partition a message with {@code key} goes to (the CRC-32 of its UTF-8 bytes modulo the partitions). */
    public int partitionOf(String key) {
        return Partitioner.forKey(key, partitions);
    }

    public int checkPartition(int partition) {
        if (partition < 0 || partition >= partitions) {
            throw new IllegalArgumentException("topic " + name + " has partitions 0 to " + (partitions - 1)
                    + ", not " + partition);
        }
        return partition;
    }

    /** The segment that holds {@code offset}. */
    long segmentOf(long offset) {
        return offset / segmentSize;
    }
}
