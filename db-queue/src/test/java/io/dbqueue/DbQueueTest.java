package io.dbqueue;

import io.dbqueue.queue.Layout;
import io.dbqueue.queue.PollSettings;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.queue.Task;
import io.dbqueue.queue.Wakeup;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the door adds to the parts it hands out: one listening connection that grows, and an orderly close. */
class DbQueueTest {

    /** An idle worker with this poll would not look at the table again within the test. */
    private static final PollSettings RARE_POLL = PollSettings.DEFAULT.withTimeouts(Duration.ZERO,
            Duration.ofMinutes(10), Duration.ofSeconds(1));

    @Test
    void aConsumerStartedAfterTheListeningBeganIsWokenToo() throws Exception {
        QueueLocation first = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("first");
        QueueLocation later = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("later"); // another table: a new channel
        CountDownLatch idle = new CountDownLatch(1);
        CountDownLatch handled = new CountDownLatch(1);
        QueueListener polls = new QueueListener() {
            @Override
            public void picked(QueueLocation q, List<Task> tasks, long claimNanos) {
                if (q.equals(later) && tasks.isEmpty()) {
                    idle.countDown();
                }
            }
        };
        try (DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).listener(polls).build()) {
            dbq.consume(QueueConfig.of(first).withPoll(RARE_POLL).withWakeup(Wakeup.NOTIFY), batch -> { });
            assertTrue(dbq.isListening());
            dbq.consume(QueueConfig.of(later).withPoll(RARE_POLL).withWakeup(Wakeup.NOTIFY), batch -> handled.countDown());
            assertTrue(idle.await(30, TimeUnit.SECONDS), "the later worker found its queue empty and waits 10 minutes");
            dbq.producer(later).enqueue("wake up");
            assertTrue(handled.await(30, TimeUnit.SECONDS), "the notification woke the later worker");
        }
    }

    @Test
    void closeStopsWhatTheDoorStartedOnceAndTheDoorStaysShut() throws Exception {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("closing");
        DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).shutdownTimeout(Duration.ofSeconds(5)).build();
        QueueWorkers workers = dbq.consume(QueueConfig.of(queue).withWakeup(Wakeup.NOTIFY), batch -> { });
        assertTrue(workers.isRunning());
        assertTrue(dbq.isListening());
        dbq.close();
        assertFalse(workers.isRunning(), "the door stopped its workers");
        assertFalse(dbq.isListening(), "the door stopped listening");
        dbq.close();
        assertEquals("this DbQueue is closed",
                assertThrows(IllegalStateException.class, () -> dbq.producer(queue)).getMessage());
    }
}
