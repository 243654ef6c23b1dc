package io.dbqueue.bench.workload;

/**
 * The pub/sub drivers' own settings ({@code log} and {@code kafka}): the topic and its readers. The
 * writers are the workload's {@code producers}, writing batches of the cell's batch size; each group
 * has {@code consumers} readers. The other drivers ignore these settings.
 *
 * @param partitions the topic's partitions
 * @param groups     consumer groups, each reading every message (the fan-out)
 * @param readBatch  records a reader takes from a partition at once
 */
public record LogLoad(int partitions, int groups, int readBatch) {

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
    }
}
