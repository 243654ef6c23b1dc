package io.dbqueue;

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
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LISTEN/NOTIFY wakeups: an idle worker wakes at once for a notified enqueue; notifications are coalesced. */
class QueueWakeupsTest {

    /** An idle worker with this poll would not look at the table again within the test. */
    private static final PollSettings RARE_POLL = PollSettings.DEFAULT.withTimeouts(Duration.ZERO,
            Duration.ofMillis(5), Duration.ofMinutes(10));

    private final DataSource ds = TestDatabase.dataSource();
    private QueueLocation queue;

    @BeforeEach
    void freshTable() throws SQLException {
        queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("wakeups");
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
        try (Connection listener = listening(); QueueNotifier notifier = new QueueNotifier(ds, Duration.ofSeconds(1))) {
            QueueProducer producer = new QueueProducer(ds, queue, notifier);
            producer.enqueue("first");
            PGNotification[] first = listener.unwrap(PGConnection.class).getNotifications(30_000);
            assertEquals(1, first == null ? 0 : first.length, "the first enqueue after a quiet interval is notified at once");
            // The first notification has been sent, so this enqueue falls within its interval.
            producer.enqueue("second");
            List<PGNotification> trailing = drain(listener);
            assertEquals(1, trailing.size(), "one more at the end of the interval");
            assertEquals(queue.queueName(), first[0].getParameter());
            assertEquals(queue.queueName(), trailing.get(0).getParameter());
        }
    }

    @Test
    void aBurstIsNotifiedAtMostOncePerInterval() throws Exception {
        try (Connection listener = listening(); QueueNotifier notifier = new QueueNotifier(ds, Duration.ofSeconds(1))) {
            QueueProducer producer = new QueueProducer(ds, queue, notifier);
            long start = System.nanoTime();
            for (int i = 0; i < 50; i++) {
                producer.enqueue("burst " + i);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            int received = drain(listener).size();
            assertTrue(received >= 1 && received <= 2 + seconds,
                    received + " notifications for 50 enqueues in " + seconds + " s with a 1 s interval");
        }
    }

    private Connection listening() throws SQLException {
        Connection c = ds.getConnection();
        try (Statement st = c.createStatement()) {
            st.execute("LISTEN " + WakeupChannel.of(queue.table()));
        }
        c.unwrap(PGConnection.class).getNotifications(); // a pooled connection may hold an earlier test's
        return c;
    }

    /**
     * What this queue's channel received until three quiet seconds, three times the notifier's
     * interval, have passed; then the pooled connection stops listening.
     */
    private List<PGNotification> drain(Connection listener) throws SQLException {
        PGConnection pg = listener.unwrap(PGConnection.class);
        List<PGNotification> received = new ArrayList<>();
        while (true) {
            PGNotification[] batch = pg.getNotifications(3000);
            if (batch == null || batch.length == 0) {
                try (Statement st = listener.createStatement()) {
                    st.execute("UNLISTEN *");
                }
                return received;
            }
            for (PGNotification n : batch) {
                if (n.getName().equals(WakeupChannel.of(queue.table()))) {
                    received.add(n);
                }
            }
        }
    }
}
