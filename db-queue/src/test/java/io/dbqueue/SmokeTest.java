package io.dbqueue;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SmokeTest {
    @Test
    void roundTrip() throws Exception {
        for (Layout layout : Layout.presets()) {
            QueueTable table = TestDatabase.freshTable(layout);
            QueueLocation q = table.queue("smoke");
            QueueProducer producer = new QueueProducer(TestDatabase.dataSource(), q);
            producer.enqueueAll(List.of("a", "b", "c"));
            CountDownLatch done = new CountDownLatch(3);
            List<String> seen = new CopyOnWriteArrayList<>();
            try (QueueWorkers w = QueueWorkers.start(TestDatabase.dataSource(), QueueConfig.of(q),
                    BatchHandler.perTask((t, b) -> { seen.add(t.payload()); done.countDown(); return TaskResult.finish(); }))) {
                assertTrue(done.await(10, TimeUnit.SECONDS));
            }
            assertEquals(List.of("a", "b", "c"), seen, layout.name());
        }
    }
}
