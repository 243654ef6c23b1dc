package io.dbqueue.bench.workload;

import io.dbqueue.maintenance.RetentionPolicy;

/**
 * The pub/sub drivers' own settings ({@code log} and {@code kafka}): the topic and its readers. The
 * writers are the workload's {@code producers}, writing batches of the cell's batch size; each group
 * has {@code consumers} readers. The other drivers ignore these settings.
 *
 * @param partitions the topic's partitions
 * @param groups     consumer groups, each reading every message (the fan-out)
 * @param readBatch  records a reader takes from a partition at once
 * @param segmentSize offsets per segment of the {@code log} driver's topic
 * @param retention  the {@code log} driver's retention: {@code none}, {@code consumed} (drop the
 *                   segments every group has read) or a duration (drop segments older than it),
 *                   applied every 10 seconds
 */
public record LogLoad(int partitions, int groups, int readBatch, long segmentSize, String retention) {

    public LogLoad {
        if (partitions < 1 || partitions > 1024) {
            throw new IllegalArgumentException("log.partitions must be 1 to 1024, was " + partitions);
        }
        if (groups < 1) {
            throw new IllegalArgumentException("log.groups must be at least 1, was " + groups);
        }
        if (readBatch < 1 || readBatch > 10_000) {
            throw new IllegalArgumentException("log.read_batch must be 1 to 10000, was " + readBatch);
        }
        if (segmentSize < 1_000) {
            throw new IllegalArgumentException("log.segment_size must be at least 1000, was " + segmentSize);
        }
        if (!retention.equals("none") && !retention.equals("consumed")) {
            DurationText.parse("log.retention (none, consumed or a duration)", retention);
        }
    }

    /** The retention as the library takes it; null for {@code none}. */
    public RetentionPolicy retentionPolicy() {
        return switch (retention) {
            case "none" -> null;
            case "consumed" -> RetentionPolicy.consumed();
            default -> new RetentionPolicy(DurationText.parse("log.retention", retention), 0, false);
        };
    }
}
