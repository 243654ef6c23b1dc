package io.dbqueue.queue;

import io.dbqueue.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LISTEN/NOTIFY wakeups: an idle worker wakes at once for a notified enqueue; notifications are coalesced. */
class QueueWakeupsTest {

    /** An idle worker with this poll would not look at the table again within the test. */
    private static final PollSettings RARE_POLL = PollSettings.DEFAULT.withTimeouts(Duration.ZERO,
            Duration.ofMinutes(10), Duration.ofSeconds(1));

    private static final AtomicInteger TESTS = new AtomicInteger();

    private final DataSource ds = TestDatabase.dataSource();
    private QueueLocation queue;

    @BeforeEach
    void freshTable() throws SQLException {
        queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("wakeups_" + TESTS.incrementAndGet());
    }

    @Test
    void aNotifiedEnqueueWakesAnIdleWorker() throws Exception {
        CountDownLatch idle = new CountDownLatch(1);
        CountDownLatch handled = new CountDownLatch(1);
        QueueListener polls = new QueueListener() {
            @Override
            public void picked(QueueLocation q, List<Task> tasks, long claimNanos) {
                if (tasks.isEmpty()) {
                    idle.countDown();
                }
            }
        };
        try (QueueWorkers workers = QueueWorkers.start(ds, QueueConfig.of(queue).withPoll(RARE_POLL),
                batch -> handled.countDown(), polls);
             QueueWakeups wakeups = QueueWakeups.start(ds, List.of(workers));
             QueueNotifier notifier = new QueueNotifier(ds)) {
            assertTrue(wakeups.isListening());
            assertTrue(idle.await(30, TimeUnit.SECONDS), "the worker found the queue empty and waits 10 minutes");
            new QueueProducer(ds, queue, notifier).enqueue("wake up");
            assertTrue(handled.await(30, TimeUnit.SECONDS), "the notification woke the worker");
        }
    }

    @Test
    void anEnqueueWithinTheIntervalGetsOneTrailingNotification() throws Exception {
        try (Listening listening = new Listening(); QueueNotifier notifier = new QueueNotifier(ds, Duration.ofSeconds(1))) {
            QueueProducer producer = new QueueProducer(ds, queue, notifier);
            producer.enqueue("first");
            listening.next();
            // The first notification has been sent, so this enqueue falls within its interval.
            producer.enqueue("second");
            listening.next();
            assertEquals(List.of(), listening.drain(), "one trailing notification, no more");
        }
    }

    @Test
    void aBurstIsNotifiedAtMostOncePerInterval() throws Exception {
        try (Listening listening = new Listening(); QueueNotifier notifier = new QueueNotifier(ds, Duration.ofSeconds(1))) {
            QueueProducer producer = new QueueProducer(ds, queue, notifier);
            long start = System.nanoTime();
            for (int i = 0; i < 50; i++) {
                producer.enqueue("burst " + i);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            int received = listening.drain().size();
            assertTrue(received >= 1 && received <= 2 + seconds,
                    received + " notifications for 50 enqueues in " + seconds + " s with a 1 s interval");
        }
    }

    /**
     * A pooled connection listening on the queue's channel, keeping only this test's queue's
     * notifications (a notifier of an earlier test may still send on the same table's channel);
     * closing it stops listening before the connection goes back to the pool.
     */
    private final class Listening implements AutoCloseable {
        private final String channel = WakeupChannel.of(queue.table());
        private final Connection connection;
        private final PGConnection pg;

        Listening() throws SQLException {
            connection = ds.getConnection();
            try (Statement st = connection.createStatement()) {
                st.execute("LISTEN " + channel);
            }
            pg = connection.unwrap(PGConnection.class);
        }

        /** Waits up to 30 s for this queue's next notification. */
        void next() throws SQLException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                if (!ours(pg.getNotifications(1000)).isEmpty()) {
                    return;
                }
            }
            throw new AssertionError("no notification for " + queue + " within 30 s");
        }

        /** This queue's notifications until three quiet seconds, three times the notifier's interval, have passed. */
        List<PGNotification> drain() throws SQLException {
            List<PGNotification> received = new ArrayList<>();
            while (true) {
                PGNotification[] batch = pg.getNotifications(3000);
                if (batch == null || batch.length == 0) {
                    return received;
                }
                received.addAll(ours(batch));
            }
        }

        private List<PGNotification> ours(PGNotification[] batch) {
            return batch == null ? List.of() : Arrays.stream(batch)
                    .filter(n -> n.getName().equals(channel) && n.getParameter().equals(queue.queueName()))
                    .toList();
        }

        @Override
        public void close() throws SQLException {
            try (Statement st = connection.createStatement()) {
                st.execute("UNLISTEN *");
            } finally {
                connection.close();
            }
        }
    }
}
