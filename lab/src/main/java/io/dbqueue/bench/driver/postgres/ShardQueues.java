package io.dbqueue.bench.driver.postgres;

/**
 * How a sharded cell spreads its load: one queue per shard ({@code <queue>-1} on shard {@code s1}, and so
 * on), the cell's producer threads dealt round the queues, and its consumer threads split among them as
 * evenly as they go, so that every cell of a run has the same total producers and consumers whatever its
 * shard count.
 */
record ShardQueues(int shards, int producers, int consumers) {

    ShardQueues {
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be at least 1, was " + shards);
        }
        if (producers < shards || consumers < shards) {
            throw new IllegalArgumentException(shards + " shards need at least " + shards
                    + " producers and consumers (a queue per shard, each produced and consumed), was " + producers
                    + " producers and " + consumers + " consumers");
        }
    }

    /** The queue on shard {@code index}. */
    static String queueName(String queue, int index) {
        return queue + "-" + (index + 1);
    }

    /** The queue (shard index) that producer thread {@code producer} (0-based) sends to. */
    int queueOfProducer(int producer) {
        return producer % shards;
    }

    /** How many consumer threads take from the queue on shard {@code index}. */
    int consumersOf(int index) {
        return share(consumers, index);
    }

    /** How many producer threads send to the queue on shard {@code index}. */
    int producersOf(int index) {
        return share(producers, index);
    }

    private int share(int total, int index) {
        return total / shards + (index < total % shards ? 1 : 0);
    }
}
