package io.dbqueue.queue;

import io.dbqueue.Await;
import io.dbqueue.DbQueue;
import io.dbqueue.TestDatabase;
import io.dbqueue.common.Transactions;
import io.dbqueue.wakeup.ListenerPresence;
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
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * LISTEN/NOTIFY wakeups: an idle worker wakes at once for a notified enqueue; notifications are
 * coalesced, sent only while a consumer wants them, and a lost one or a lost listener strands nothing.
 */
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

    /**
     * Workers shut down on their own, the door still open, stop wanting notifications: the door's LISTEN connection
     * gives up their channel's presence lock, so producers stop notifying nobody. A stopped worker still said it
     * wanted them, and the lock stayed held as long as the door.
     */
    @Test
    void workersShutDownOnTheirOwnGiveUpTheirChannelsPresence() throws Exception {
        String channel = WakeupChannel.of(queue.table());
        try (DbQueue dbq = DbQueue.builder(ds).build()) {
            QueueWorkers workers = dbq.consume(QueueConfig.of(queue).withPoll(RARE_POLL).withWakeup(Wakeup.NOTIFY),
                    batch -> { });
            Await.until(Duration.ofSeconds(30), "the presence held", () -> presenceHolders(channel) == 1);
            assertTrue(workers.shutdown(Duration.ofSeconds(10)));
            Await.until(Duration.ofSeconds(30), "the presence given up", () -> presenceHolders(channel) == 0);
        }
    }

    /** Sessions holding {@code channel}'s presence lock ({@link ListenerPresence}: a two-key advisory lock). */
    private static long presenceHolders(String channel) throws SQLException {
        return TestDatabase.queryLong("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2"
                + " AND classid = " + 0x64627177 + " AND objid = " + (channel.hashCode() & 0xffffffffL));
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
        try (QueueWorkers workers = QueueWorkers.start(ds, QueueConfig.of(queue).withPoll(RARE_POLL)
                        .withWakeup(Wakeup.NOTIFY), batch -> handled.countDown(), polls);
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
    void aBurstOfTenThousandTasksIsNotifiedAtMostOncePerInterval() throws Exception {
        try (Listening listening = new Listening(); QueueNotifier notifier = new QueueNotifier(ds, Duration.ofSeconds(1))) {
            QueueProducer producer = new QueueProducer(ds, queue, notifier);
            long start = System.nanoTime();
            for (int i = 0; i < 1000; i++) {
                producer.enqueueAll(List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j"));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            int received = listening.drain().size();
            assertTrue(received >= 1 && received <= 2 + seconds,
                    received + " notifications for 10,000 tasks in " + seconds + " s with a 1 s interval");
            assertEquals(received, notifier.sent());
        }
    }

    @Test
    void theFirstEnqueueAfterAQuietIntervalCarriesItsOwnNotification() throws Exception {
        try (Listening listening = new Listening(); QueueNotifier notifier = new QueueNotifier(ds, Duration.ofSeconds(1))) {
            QueueProducer producer = new QueueProducer(ds, queue, QueueListener.NONE, Transactions.JDBC,
                    notifier);
            producer.enqueue("first");
            assertEquals(1, notifier.sent(), "sent in the enqueue's own statement, before it returned");
            listening.next();
            producer.enqueue("second");
            listening.next(); // the trailing notification, at the interval's end
            assertEquals(List.of(), listening.drain(), "one notification for each, no more");
            assertEquals(2, notifier.sent());
        }
    }

    @Test
    void nothingIsNotifiedWhileNoConsumerWantsIt() throws Exception {
        try (Listening listening = new Listening(false); QueueNotifier notifier = new QueueNotifier(ds, Duration.ZERO)) {
            new QueueProducer(ds, queue, notifier).enqueue("unwanted");
            Await.until(Duration.ofSeconds(30), "the notifier to decide", () -> notifier.skipped() == 1);
            new QueueProducer(ds, queue, QueueListener.NONE, Transactions.JDBC, notifier).enqueue("inline");
            assertEquals(2, notifier.skipped(), "the enqueue's own statement found nobody listening either");
            assertEquals(0, notifier.sent());
            assertEquals(List.of(), listening.drain(), "a session listening without announcing itself gets nothing");
        }
    }

    @Test
    void aLostNotificationIsCoveredByTheFallbackPoll() throws Exception {
        CountDownLatch handled = new CountDownLatch(1);
        PollSettings fallback = RARE_POLL.withTimeouts(Duration.ZERO, Duration.ofMillis(200), Duration.ofSeconds(1));
        try (QueueWorkers workers = QueueWorkers.start(ds, QueueConfig.of(queue).withPoll(fallback)
                .withWakeup(Wakeup.NOTIFY), batch -> handled.countDown());
             QueueWakeups wakeups = QueueWakeups.start(ds, List.of(workers))) {
            assertTrue(wakeups.isListening());
            new QueueProducer(ds, queue).enqueue("never notified");
            assertTrue(handled.await(30, TimeUnit.SECONDS), "the worker's poll found the task");
        }
    }

    @Test
    void aKilledListenerReconnectsAndStrandsNothing() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        try (QueueWorkers workers = QueueWorkers.start(ds, QueueConfig.of(queue).withPoll(RARE_POLL)
                .withWakeup(Wakeup.NOTIFY), batch -> handled.addAndGet(batch.tasks().size()));
             QueueWakeups wakeups = QueueWakeups.start(ds, List.of(workers));
             QueueNotifier notifier = new QueueNotifier(ds)) {
            QueueProducer producer = new QueueProducer(ds, queue, notifier);
            long listener = listenerPid();
            TestDatabase.execute("SELECT pg_terminate_backend(" + listener + ")");
            producer.enqueue("while the listener is gone, maybe");
            Await.until(Duration.ofSeconds(30), "a new listener session", () -> wakeups.isListening()
                    && listenerPid() != listener);
            producer.enqueue("after it is back");
            Await.until(Duration.ofSeconds(30), "both tasks handled, without a poll", () -> handled.get() == 2);
        }
    }

    @Test
    void adaptiveWorkersPollWhileSaturatedWithoutNotificationsAndListenAgainAfter() throws Exception {
        PollSettings batchOfTen = RARE_POLL.withBatchSize(10).withTimeouts(Duration.ofMillis(10), Duration.ofMinutes(10),
                Duration.ofSeconds(1));
        QueueProducer quiet = new QueueProducer(ds, queue);
        for (int i = 0; i < 40; i++) {
            quiet.enqueueAll(Collections.nCopies(100, "backlog"));
        }
        try (QueueNotifier notifier = new QueueNotifier(ds);
             QueueWorkers workers = QueueWorkers.start(ds, QueueConfig.of(queue).withPoll(batchOfTen).withThreads(2)
                     .withWakeup(Wakeup.ADAPTIVE), batch -> Thread.sleep(20)); // the work each batch takes
             QueueWakeups wakeups = QueueWakeups.start(ds, List.of(workers))) {
            QueueProducer producer = new QueueProducer(ds, queue, notifier);
            Await.until(Duration.ofSeconds(30), "saturated workers to stop listening", () -> !workers.wantsNotifications());
            Await.until(Duration.ofSeconds(30), "producers to be told", () -> !presenceHeld());
            long sent = notifier.sent();
            long skipped = notifier.skipped();
            producer.enqueue("while saturated");
            Await.until(Duration.ofSeconds(30), "the notifier to decide", () -> notifier.skipped() > skipped);
            assertEquals(sent, notifier.sent(), "no NOTIFY while the workers are saturated");

            Await.until(Duration.ofSeconds(60), "the backlog to drain and the workers to listen again",
                    () -> workers.wantsNotifications() && presenceHeld());
            assertEquals(2, workers.wakeupSwitches(), "one switch each way, no flapping");
            Await.until(Duration.ofSeconds(30), "the queue to be empty", () -> TestDatabase.queryLong(
                    "SELECT count(*) FROM " + queue.table().name()) == 0);
            producer.enqueue("after");
            Await.until(Duration.ofSeconds(30), "a notification for the new task", () -> notifier.sent() > sent);
            Await.until(Duration.ofSeconds(30), "the new task handled", () -> TestDatabase.queryLong(
                    "SELECT count(*) FROM " + queue.table().name()) == 0);
        }
    }

    /** The backend that holds this table's wakeup presence lock: the wakeup listener's. */
    private long listenerPid() throws SQLException {
        return TestDatabase.queryLong("SELECT coalesce(max(pid), 0) FROM pg_locks WHERE locktype = 'advisory'"
                + " AND classid = 1684173175 AND objid::int4 = " + WakeupChannel.of(queue.table()).hashCode());
    }

    private boolean presenceHeld() throws SQLException {
        return listenerPid() != 0;
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
            this(true);
        }

        /** {@code announced}: whether it tells notifiers it wants the channel's notifications, as QueueWakeups does. */
        Listening(boolean announced) throws SQLException {
            connection = ds.getConnection();
            try (Statement st = connection.createStatement()) {
                st.execute("LISTEN " + channel);
            }
            if (announced) {
                ListenerPresence.hold(connection, channel);
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
                st.execute("SELECT pg_advisory_unlock_all()");
            } finally {
                connection.close();
            }
        }
    }
}
