package io.dbqueue.bench.driver.postgres;

import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ShardQueuesTest {

    @Test
    void everyShardGetsAQueueAndTheClientsAreSplitAsEvenlyAsTheyGo() {
        ShardQueues spread = new ShardQueues(3, 7, 6);

        assertArrayEquals(new int[]{0, 1, 2, 0, 1, 2, 0},
                IntStream.range(0, 7).map(spread::queueOfProducer).toArray(), "producers dealt round");
        assertArrayEquals(new int[]{3, 2, 2}, IntStream.range(0, 3).map(spread::producersOf).toArray());
        assertArrayEquals(new int[]{2, 2, 2}, IntStream.range(0, 3).map(spread::consumersOf).toArray());
        assertEquals("bench-3", ShardQueues.queueName("bench", 2));
    }

    @Test
    void theSameTotalWhateverTheShardCount() {
        for (int shards = 1; shards <= 4; shards++) {
            ShardQueues spread = new ShardQueues(shards, 6, 5);
            assertEquals(6, IntStream.range(0, shards).map(spread::producersOf).sum());
            assertEquals(5, IntStream.range(0, shards).map(spread::consumersOf).sum());
        }
    }

    @Test
    void aShardWithoutAProducerOrAConsumerIsRefused() {
        assertEquals("3 shards need at least 3 producers and consumers (a queue per shard, each produced and"
                        + " consumed), was 6 producers and 2 consumers",
                assertThrows(IllegalArgumentException.class, () -> new ShardQueues(3, 6, 2)).getMessage());
    }
}
