package io.dbqueue.queue;

import io.dbqueue.Await;
import io.dbqueue.TestDatabase;
import io.dbqueue.common.Transactions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Workers that take a group's queues in turn: a backlog in one queue keeps no other waiting, and a cap holds. */
class QueueGroupTest {

    private static final PollSettings POLL = PollSettings.DEFAULT.withBatchSize(1)
            .withTimeouts(Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofSeconds(1));

    private final DataSource ds = TestDatabase.dataSource();
    private QueueTable table;

    @BeforeEach
    void freshTable() throws SQLException {
        table = TestDatabase.freshTable(Layout.DBQ_SEQ);
    }

    @Test
    void aQuietQueueIsServedWhileAnotherHasABacklogAndTheCapHolds() throws Exception {
        QueueGroup group = new QueueGroup(table, List.of("noisy", "quiet_1", "quiet_2"), 2);
        new QueueProducer(ds, table.queue("noisy")).enqueueAll(Collections.nCopies(1000, "n"));
        Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
        AtomicInteger mostOnNoisy = new AtomicInteger();
        BatchHandler handler = batch -> {
            String queueName = batch.tasks().get(0).queueName();
            int now = running.computeIfAbsent(queueName, q -> new AtomicInteger()).incrementAndGet();
            if (queueName.equals("noisy")) {
                mostOnNoisy.accumulateAndGet(now, Math::max);
            }
            Thread.sleep(2); // the work a task takes
            running.get(queueName).decrementAndGet();
            handled.computeIfAbsent(queueName, q -> new AtomicInteger()).incrementAndGet();
        };
        try (QueueWorkers workers = QueueWorkers.startGroup(ds, QueueConfig.of(table.queue("noisy")).withThreads(3)
                .withPoll(POLL), group, handler, QueueListener.NONE, Executors.defaultThreadFactory(), Transactions.JDBC)) {
            Await.until(Duration.ofSeconds(30), "the noisy backlog to be worked on", () -> handled.containsKey("noisy"));
            new QueueProducer(ds, table.queue("quiet_1")).enqueue("q1");
            new QueueProducer(ds, table.queue("quiet_2")).enqueue("q2");
            Await.until(Duration.ofSeconds(30), "the quiet queues' tasks handled",
                    () -> handled.containsKey("quiet_1") && handled.containsKey("quiet_2"));
            assertTrue(handled.get("noisy").get() < 1000, "served before the backlog was done: "
                    + handled.get("noisy") + " of 1000 noisy tasks handled");
            Await.until(Duration.ofSeconds(60), "the backlog done", () -> handled.get("noisy").get() == 1000);
            assertEquals(2, workers.locations().size() - 1);
        }
        assertTrue(mostOnNoisy.get() <= 2, mostOnNoisy.get() + " workers on the noisy queue at once, the cap is 2");
    }

    /**
     * A rate limit out of tokens holds back its own queue only: the workers wait for its next token (20 s away) no
     * longer than the poll's 1 s while another queue of the group may have tasks.
     */
    @Test
    void aRateLimitedQueueDoesNotHoldBackTheOthersOfItsGroup() throws Exception {
        QueueGroup group = new QueueGroup(table, List.of("limited", "free"), 1);
        new QueueProducer(ds, table.queue("limited")).enqueueAll(List.of("first", "waits for a token"));
        Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();
        BatchHandler handler = batch -> handled.computeIfAbsent(batch.tasks().get(0).queueName(),
                q -> new AtomicInteger()).incrementAndGet();
        QueueConfig config = QueueConfig.of(table.queue("limited")).withPoll(POLL).withLimits(QueueLimits.rate(0.05, 1));
        try (QueueWorkers workers = QueueWorkers.startGroup(ds, config, group, handler, QueueListener.NONE,
                Executors.defaultThreadFactory(), Transactions.JDBC)) {
            Await.until(Duration.ofSeconds(30), "the limited queue's first task", () -> handled.containsKey("limited"));
            new QueueProducer(ds, table.queue("free")).enqueue("free");
            Await.until(Duration.ofSeconds(10), "the free queue's task, well before the limited queue's next token",
                    () -> handled.containsKey("free"));
            assertEquals(1, handled.get("limited").get(), "the limit held its own queue");
        }
    }

    /** One worker, two notified queues: the second task's wakeup is not lost though it arrives while the first's is pending. */
    @Test
    void aNotifiedWorkerTakesEveryQueueOfTheGroupBeforeWaitingAgain() throws Exception {
        QueueGroup group = new QueueGroup(table, List.of("a", "b"), 1);
        PollSettings rare = PollSettings.DEFAULT.withBatchSize(10).withTimeouts(Duration.ZERO, Duration.ofMinutes(10),
                Duration.ofSeconds(1));
        AtomicInteger handled = new AtomicInteger();
        AtomicInteger emptyRounds = new AtomicInteger();
        QueueListener claims = new QueueListener() {
            @Override
            public void picked(QueueLocation queue, List<Task> tasks, long claimNanos) {
                if (tasks.isEmpty() && queue.queueName().equals("b")) {
                    emptyRounds.incrementAndGet();
                }
            }
        };
        try (QueueWorkers workers = QueueWorkers.startGroup(ds, QueueConfig.of(table.queue("a")).withPoll(rare)
                        .withWakeup(Wakeup.NOTIFY), group, batch -> handled.addAndGet(batch.tasks().size()), claims,
                Executors.defaultThreadFactory(), Transactions.JDBC);
             QueueWakeups wakeups = QueueWakeups.start(ds, List.of(workers));
             QueueNotifier notifier = new QueueNotifier(ds)) {
            assertTrue(wakeups.isListening());
            Await.until(Duration.ofSeconds(30), "the worker to go idle", () -> emptyRounds.get() > 0);
            new QueueProducer(ds, table.queue("a"), QueueListener.NONE, Transactions.JDBC, notifier).enqueue("to a");
            new QueueProducer(ds, table.queue("b"), QueueListener.NONE, Transactions.JDBC, notifier).enqueue("to b");
            Await.until(Duration.ofSeconds(30), "both tasks handled without a poll", () -> handled.get() == 2);
        }
    }

    @Test
    void aGroupIsValidated() {
        assertThrows(IllegalArgumentException.class, () -> new QueueGroup(table, List.of(), 1));
        assertThrows(IllegalArgumentException.class, () -> new QueueGroup(table, List.of("a", "a"), 1));
        assertThrows(IllegalArgumentException.class, () -> new QueueGroup(table, List.of("a"), 0));
        assertThrows(IllegalArgumentException.class, () -> new QueueGroup(table, List.of("bad name;"), 1));
        QueueGroup group = new QueueGroup(table, List.of("a"), 1);
        QueueConfig elsewhere = QueueConfig.of(new QueueTable("other_table", Layout.DBQ_SEQ).queue("a"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QueueWorkers.startGroup(ds,
                elsewhere, group, batch -> { }, QueueListener.NONE, Executors.defaultThreadFactory(), Transactions.JDBC));
        assertTrue(e.getMessage().contains("other_table"), e.getMessage());
    }
}
