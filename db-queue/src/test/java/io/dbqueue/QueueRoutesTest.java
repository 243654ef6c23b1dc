package io.dbqueue;

import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueLocation;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Where a queue's enqueues and consumers go before, during and after a move. */
class QueueRoutesTest {

    private static final QueueLocation QUEUE = QueueLocation.of(Layout.DBQ_SEQ, "routed");

    @Test
    void consumersStayOnTheOldShardUntilTheMoveIsReleased() {
        ShardSet shards = ShardSet.builder().shard("a", TestDatabase.dataSource())
                .shard("b", TestDatabase.dataSource()).build();
        QueueRoutes routes = new QueueRoutes(shards, Placement.hashed().queue(QUEUE.queueName(), "a"));
        assertEquals("a", routes.consumedShard(QUEUE));
        assertEquals("a", routes.move(QUEUE, "b"));
        assertEquals("b", routes.shardOf(QUEUE), "new enqueues go to the new shard");
        assertEquals("a", routes.consumedShard(QUEUE), "consumers drain the old one");
        routes.released(QUEUE);
        assertEquals("b", routes.consumedShard(QUEUE));
    }
}
