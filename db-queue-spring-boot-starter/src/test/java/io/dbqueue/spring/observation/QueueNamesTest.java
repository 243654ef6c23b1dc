package io.dbqueue.spring.observation;

import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueTable;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class QueueNamesTest {

    private static final QueueTable TABLE = QueueTable.of(Layout.DBQ_SEQ);

    /**
     * A configured queue is tagged with its id; any other (a producer made by hand, say one per tenant) with one fixed
     * value: tagged with its name, each made a meter of its own, without bound.
     */
    @Test
    void aConfiguredQueueIsTaggedWithItsIdAndAnyOtherWithOneValue() {
        QueueNames names = new QueueNames(Map.of("orders", QueueConfig.of(TABLE.queue("orders-queue"))));
        assertEquals("orders", names.id(TABLE.queue("orders-queue")));
        assertEquals("other", names.id(TABLE.queue("tenant-17")));
        assertEquals("other", names.id(TABLE.queue("tenant-18")));
    }
}
