package io.dbqueue.queue;

import io.dbqueue.Await;
import io.dbqueue.DbQueue;
import io.dbqueue.TestDatabase;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.Transactions;
import io.dbqueue.internal.Jdbc;
import io.dbqueue.postgres.PostgresServer;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The queue's promises, checked on every layout against a real PostgreSQL. */
class QueueContractTest extends EveryLayout {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** An idle worker with this poll would not look at the table again within {@link #TIMEOUT}. */
    private static final PollSettings RARE_POLL = PollSettings.DEFAULT.withTimeouts(Duration.ZERO,
            Duration.ofMinutes(10), Duration.ofSeconds(1));
    private static final Duration BACKOFF = Duration.ofMillis(200);

    @Override
    String queueName() {
        return "contract";
    }

    @Test
    void singleConsumerGetsTasksInEnqueueOrder() throws Exception {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            producer.enqueue("single-" + i);
            expected.add("single-" + i);
        }
        List<String> batch = LongStream.range(0, 50).mapToObj(i -> "batch-" + i).toList();
        producer.enqueueAll(batch);
        expected.addAll(batch);

        List<String> seen = new CopyOnWriteArrayList<>();
        QueueConfig config = QueueConfig.of(queue).withBatchSize(7);
        try (QueueWorkers ignored = dbq.consume(config, BatchHandler.perTask((task, b) -> {
            seen.add(task.payload());
            return TaskResult.finish();
        }))) {
            Await.until(TIMEOUT, "all 70 tasks processed", () -> seen.size() == 70);
        }
        assertEquals(expected, seen);
        assertEquals(0, rows());
    }

    /** spring.datasource.hikari.auto-commit=false, common with JPA: the workers' writes must still commit. */
    @Test
    void workersFinishTasksOnAPoolWhoseConnectionsStartInATransaction() throws Exception {
        producer.enqueueAll(List.of("a", "b", "c"));
        PostgresServer server = PostgresServer.shared();
        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl(server.jdbcUrl());
        pool.setUsername(server.user());
        pool.setPassword(server.password());
        pool.setMaximumPoolSize(4);
        pool.setAutoCommit(false);
        try (HikariDataSource inTransaction = new HikariDataSource(pool);
             DbQueue onPool = DbQueue.builder(inTransaction).build()) {
            AtomicInteger handled = new AtomicInteger();
            onPool.consume(QueueConfig.of(queue).withBatchSize(3), batch -> handled.addAndGet(batch.tasks().size()));
            Await.until(TIMEOUT, "the three tasks finished and deleted", () -> rows() == 0);
            assertEquals(3, handled.get());
        }
    }

    /** A delayed task does not wait for a worker: it used to make the oldest age, and health's max-oldest-age, grow. */
    @Test
    void depthCountsEveryTaskAndAgesOnlyTheDueOnes() throws Exception {
        QueueMonitor monitor = new QueueMonitor(ds, queue);
        assertEquals(new QueueMonitor.Depth(0, Duration.ZERO), monitor.depth());
        producer.enqueue("later", Duration.ofDays(1));
        TestDatabase.execute("UPDATE " + table.name() + " SET created_at = now() - interval '1 hour'"
                + " WHERE queue_name = '" + queue.queueName() + "'");
        assertEquals(new QueueMonitor.Depth(1, Duration.ZERO), monitor.depth(), "due tomorrow: not waiting");
        producer.enqueue("now");
        TestDatabase.execute("UPDATE " + table.name() + " SET created_at = now() - interval '10 minutes'"
                + " WHERE queue_name = '" + queue.queueName() + "' AND payload = 'now'");
        QueueMonitor.Depth depth = monitor.depth();
        assertEquals(2, depth.tasks());
        assertTrue(depth.oldestAge().compareTo(Duration.ofMinutes(10)) >= 0
                && depth.oldestAge().compareTo(Duration.ofMinutes(11)) < 0, "the due task's age: " + depth);
    }

    @Test
    void peekListsTheQueuesTasksByIdAndPurgeEmptiesOnlyThisQueue() throws Exception {
        QueueProducer other = dbq.producer(table.queue("other"));
        other.enqueue("stays");
        List<Long> ids = producer.enqueueAll(List.of("a", "b", "c"));
        QueueMonitor monitor = new QueueMonitor(ds, queue);

        assertEquals(List.of("a", "b"), monitor.peek(2).stream().map(Task::payload).toList());
        assertEquals(ids, monitor.peek(10).stream().map(Task::id).toList());
        assertEquals(ids, monitor.purge().stream().map(Task::id).toList());
        assertEquals(0, monitor.depth().tasks());
        assertEquals(List.of("stays"), new QueueMonitor(ds, table.queue("other")).peek(10).stream()
                .map(Task::payload).toList());
        assertThrows(IllegalArgumentException.class, () -> monitor.peek(0));
    }

    @Test
    void concurrentProducersAndConsumersLoseNothingAndProcessNothingTwice() throws Exception {
        int producers = 8;
        int perProducer = 300;
        Map<Long, Integer> processed = new ConcurrentHashMap<>();
        AtomicInteger total = new AtomicInteger();
        QueueConfig config = QueueConfig.of(queue).withThreads(8).withBatchSize(10)
                .withPoll(PollSettings.DEFAULT.withBatchSize(10).withTimeouts(Duration.ZERO, Duration.ofMillis(5),
                        Duration.ofMillis(100)));
        List<Long> enqueued = new ArrayList<>();
        try (QueueWorkers ignored = dbq.consume(config, batch -> {
            for (Task task : batch.tasks()) {
                processed.merge(task.id(), 1, Integer::sum);
            }
            total.addAndGet(batch.tasks().size());
        })) {
            ExecutorService pool = Executors.newFixedThreadPool(producers);
            List<Future<List<Long>>> futures = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int producerId = p;
                futures.add(pool.submit(() -> {
                    List<Long> ids = new ArrayList<>();
                    int sent = 0;
                    while (sent < perProducer) {
                        int size = Math.min(perProducer - sent, 1 + ThreadLocalRandom.current().nextInt(20));
                        List<String> payloads = new ArrayList<>();
                        for (int i = 0; i < size; i++) {
                            payloads.add("p" + producerId + "-" + (sent + i));
                        }
                        ids.addAll(producer.enqueueAll(payloads));
                        sent += size;
                    }
                    return ids;
                }));
            }
            for (Future<List<Long>> f : futures) {
                enqueued.addAll(f.get());
            }
            pool.shutdown();
            Await.until(TIMEOUT, "every task processed", () -> total.get() >= producers * perProducer);
        }
        assertEquals(producers * perProducer, enqueued.size());
        assertEquals(producers * perProducer, processed.size(), "distinct tasks processed");
        assertEquals(List.of(), processed.entrySet().stream().filter(e -> e.getValue() != 1).toList(),
                "tasks processed more than once");
        assertEquals(enqueued.stream().mapToLong(Long::longValue).sum(),
                processed.keySet().stream().mapToLong(Long::longValue).sum(), "checksum of ids");
        assertEquals(0, rows());
    }

    /**
     * The clock is the database's: the delay is checked where it was stored, and the task is made due by
     * moving its due time, so that neither a slow machine nor a fast one can skip a side of the check.
     */
    @Test
    void delayedTaskIsInvisibleUntilDue() throws Exception {
        long delayed = producer.enqueue("later", Duration.ofHours(1));
        long now = producer.enqueue("now");
        TaskStore store = new TaskStore(queue);
        assertEquals(List.of(now), ids(claim(store, 10)), "only the task due at once is claimed");
        assertDueInAnHour(delayed);
        assertEquals(List.of(), claim(store, 10), "the delayed task stays hidden");
        makeDue(delayed);
        assertEquals(List.of(delayed), ids(claim(store, 10)), "the delayed task is claimed once due");
    }

    /** As above: the lease is checked where it was stored, and expired by moving it. */
    @Test
    void tasksOfAConsumerThatDiedReappearWhenTheLeaseExpires() throws Exception {
        long id = producer.enqueue("orphan");
        TaskStore store = new TaskStore(queue);
        // A consumer claims with an hour's lease and dies without answering.
        try (Connection dying = ds.getConnection()) {
            List<Task> claimed = store.claim(dying, 10, DeliveryMode.AT_LEAST_ONCE, Duration.ofHours(1));
            assertEquals(List.of(id), ids(claimed));
        }
        assertDueInAnHour(id);
        assertEquals(List.of(), claim(store, 10), "leased task must stay hidden");
        makeDue(id);
        List<Task> again = claim(store, 10);
        assertEquals(List.of(id), ids(again), "orphaned task reappears once its lease expired");
        assertEquals(2, again.get(0).attempt());
    }

    /**
     * A handler whose lease ran out answers late, after another worker claimed its task: its retry, re-enqueue or
     * release must not rewind the attempt and take that worker's lease, nor its dead letter move the task from under
     * it. All used to.
     */
    @Test
    void lateAnswersOfAHandlerWhoseLeaseRanOutLeaveTheNewHoldersTaskAlone() throws Exception {
        Overrun o = leaseRanOut();
        assertEquals(List.of(2, 2), List.of(o.current().get(0).attempt(), o.current().get(0).totalAttempt()));
        try (Connection c = ds.getConnection()) {
            answerLate(c, o.store(), o.late());
            o.store().release(c, o.late());
        }
        assertEquals(0, new DeadLetters(ds, queue).count());
        double leaseLeft = secondsUntilDue(o.id());
        assertTrue(leaseLeft > 240 && leaseLeft <= 300, "the holder's 5-minute lease stays: " + leaseLeft + " s");
        assertEquals(2, TestDatabase.queryLong("SELECT attempt FROM " + table.name() + " WHERE id = " + o.id()));
        // the holder's own answers still apply
        try (Connection c = ds.getConnection()) {
            o.store().retry(c, Map.of(o.current().get(0), Duration.ZERO), Delivery.of(DeliveryMode.AT_LEAST_ONCE));
        }
        assertEquals(List.of(3), claim(o.store(), 10).stream().map(Task::attempt).toList());
    }

    /**
     * A late handler's answers stay fenced after the task's next holder re-enqueued it, and after a later claim. A
     * re-enqueue sets the attempt back to 0, so answers fenced on the attempt moved the re-enqueued task to the dead
     * letters, and the claim after it had the late handler's attempt again: its retry, release or heartbeat then took
     * that claim's lease.
     */
    @Test
    void lateAnswersStayFencedAfterTheTaskWasReenqueuedAndClaimedAgain() throws Exception {
        Overrun o = leaseRanOut();
        long id = o.id();
        TaskStore store = o.store();
        List<Task> late = o.late();
        List<Task> next = o.current();
        try (Connection c = ds.getConnection()) {
            store.reenqueue(c, Map.of(next.get(0), Duration.ofHours(1)));
            answerLate(c, store, late);
        }
        assertEquals(0, new DeadLetters(ds, queue).count());
        assertTrue(secondsUntilDue(id) > 3500, "the re-enqueue's hour stays: " + secondsUntilDue(id) + " s");
        makeDue(id);
        List<Task> again = claim(store, 10);
        assertEquals(List.of(late.get(0).attempt()), again.stream().map(Task::attempt).toList(), "the attempt again");
        try (Connection c = ds.getConnection()) {
            assertEquals(0, store.extendLeases(c, late, Duration.ofSeconds(1)));
            answerLate(c, store, late);
            store.release(c, late);
        }
        assertEquals(0, new DeadLetters(ds, queue).count());
        double leaseLeft = secondsUntilDue(id);
        assertTrue(leaseLeft > 240 && leaseLeft <= 300, "the holder's 5-minute lease stays: " + leaseLeft + " s");
        assertEquals(1, TestDatabase.queryLong("SELECT reenqueue_attempt FROM " + table.name() + " WHERE id = " + id));
    }

    /**
     * Exactly once, a failed batch's rollback lets another worker claim its task, with the same attempt, before the
     * failure is recorded in a transaction of its own. Both failures count: written as claimed, the late record
     * rewrote the other's attempt, and a task could fail more often than its policy allows.
     */
    @Test
    void exactlyOnceTwoFailuresOfOneAttemptBothCount() throws Exception {
        long id = producer.enqueue("fails twice");
        TaskStore store = new TaskStore(queue);
        Delivery exactlyOnce = Delivery.of(DeliveryMode.EXACTLY_ONCE);
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            List<Task> first = store.claim(c, 10, DeliveryMode.EXACTLY_ONCE, Duration.ofMinutes(5));
            c.rollback(); // its handler failed
            List<Task> second = store.claim(c, 10, DeliveryMode.EXACTLY_ONCE, Duration.ofMinutes(5));
            assertEquals(first.get(0).attempt(), second.get(0).attempt(), "claimed again as the same attempt");
            store.retry(c, Map.of(second.get(0), Duration.ZERO), exactlyOnce); // failed in turn, in its transaction
            c.commit();
            store.retry(c, Map.of(first.get(0), Duration.ZERO), exactlyOnce); // the first failure, recorded late
            c.commit();
        }
        assertEquals(2, TestDatabase.queryLong("SELECT attempt FROM " + table.name() + " WHERE id = " + id));
    }

    /** A task claimed (late), its lease run out while the handler ran on, and claimed again (current). */
    private record Overrun(long id, TaskStore store, List<Task> late, List<Task> current) {
    }

    private Overrun leaseRanOut() throws SQLException {
        long id = producer.enqueue("slow");
        TaskStore store = new TaskStore(queue);
        List<Task> late = claim(store, 10);
        makeDue(id);
        return new Overrun(id, store, late, claim(store, 10));
    }

    private static void answerLate(Connection c, TaskStore store, List<Task> late) throws SQLException {
        store.retry(c, Map.of(late.get(0), Duration.ZERO), Delivery.of(DeliveryMode.AT_LEAST_ONCE));
        store.deadLetter(c, Map.of(late.get(0), "the late handler's error"));
        store.reenqueue(c, Map.of(late.get(0), Duration.ZERO));
    }

    /** Each retry is handled when it comes due, not at the next poll, ten minutes away. */
    @ParameterizedTest
    @EnumSource(Wakeup.class)
    void retriesAreHandledWhenTheyComeDueNotAtTheNextPoll(Wakeup wakeup) throws Exception {
        List<Long> starts = new CopyOnWriteArrayList<>(); // System.nanoTime() as each attempt started
        QueueConfig config = QueueConfig.of(queue).withPoll(RARE_POLL).withWakeup(wakeup)
                .withRetry(RetryPolicy.of(RetryPolicy.RetryType.LINEAR, BACKOFF, 3));
        producer.enqueue("flaky"); // before the workers start: a polling worker is not woken for it
        try (QueueWorkers ignored = dbq.consume(config, BatchHandler.perTask((task, b) -> {
            starts.add(System.nanoTime());
            return task.attempt() < 3 ? TaskResult.fail("not yet") : TaskResult.finish();
        }))) {
            Await.until(TIMEOUT, "the third attempt finished the task", () -> rows() == 0);
        }
        assertEquals(3, starts.size());
        for (int i = 1; i < 3; i++) {
            long gap = starts.get(i) - starts.get(i - 1);
            assertTrue(gap >= BACKOFF.toNanos(), "attempt " + (i + 1) + " started " + gap / 1e6 + " ms after the last");
        }
    }

    /**
     * A delayed task enqueued while the workers idle is handled when it comes due, not at the next poll. Without a
     * claim index nothing looks up due times: there it waits for the next poll (here 2 s).
     */
    @ParameterizedTest
    @EnumSource(value = Wakeup.class, names = {"NOTIFY", "ADAPTIVE"})
    void aDelayedTaskIsHandledWhenItComesDueNotAtTheNextPoll(Wakeup wakeup) throws Exception {
        boolean looksUpDueTimes = layout.claimIndex() != Layout.ClaimIndex.NONE;
        Duration noTaskPoll = Duration.ofSeconds(2);
        PollSettings poll = looksUpDueTimes ? RARE_POLL
                : PollSettings.DEFAULT.withTimeouts(Duration.ZERO, noTaskPoll, RARE_POLL.fatalCrashTimeout());
        CountDownLatch idle = new CountDownLatch(1);
        QueueListener emptyClaims = new QueueListener() {
            @Override
            public void picked(QueueLocation q, List<Task> tasks, long claimNanos) {
                if (tasks.isEmpty()) {
                    idle.countDown();
                }
            }
        };
        AtomicLong handledAt = new AtomicLong();
        try (DbQueue door = DbQueue.builder(ds).listener(emptyClaims).build()) {
            door.consume(QueueConfig.of(queue).withPoll(poll).withWakeup(wakeup),
                    batch -> handledAt.set(System.nanoTime()));
            assertTrue(idle.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS), "the worker found the queue empty");
            long sent = System.nanoTime();
            door.producer(queue).enqueue("later", BACKOFF);
            Await.until(TIMEOUT, "the delayed task handled", () -> handledAt.get() != 0);
            assertTrue(handledAt.get() - sent >= BACKOFF.toNanos(), "handled only once due");
            if (!looksUpDueTimes) {
                assertTrue(handledAt.get() - sent >= noTaskPoll.toNanos() / 2,
                        "handled at the next poll: " + (handledAt.get() - sent) / 1_000_000 + " ms after the enqueue");
            }
        }
    }

    private void assertDueInAnHour(long id) throws SQLException {
        double seconds = secondsUntilDue(id);
        assertTrue(seconds > 3600 - 60 && seconds <= 3600, "due in " + seconds + " s, expected an hour");
    }

    @Test
    void failuresBackOffGeometricallyInTheRow() throws Exception {
        long id = producer.enqueue("flaky");
        RetryPolicy retry = RetryPolicy.of(RetryPolicy.RetryType.GEOMETRIC, Duration.ofSeconds(10), 5);
        BatchProcessor processor = processor(QueueConfig.of(queue).withRetry(retry),
                BatchHandler.perTask((task, b) -> TaskResult.fail("boom")));
        for (int attempt = 1; attempt <= 3; attempt++) {
            assertEquals(1, processor.runOnce());
            double seconds = secondsUntilDue(id);
            double expected = 10 * Math.pow(2, attempt - 1);
            // 10, 20, 40: geometric, and far from arithmetic (10, 30, 50) and linear (10, 10, 10) even on a stalled machine
            assertTrue(Math.abs(seconds - expected) < 5, "attempt " + attempt + ": due in " + seconds + " s, expected "
                    + expected);
            assertEquals(attempt, TestDatabase.queryLong("SELECT attempt FROM " + table.name() + " WHERE id = " + id));
            makeDue(id);
        }
    }

    @Test
    void taskThatKeepsFailingMovesToDeadLettersAfterMaxAttempts() throws Exception {
        long id = producer.enqueue("poison");
        List<Boolean> deadFlags = new CopyOnWriteArrayList<>();
        QueueListener listener = new QueueListener() {
            @Override
            public void failed(QueueLocation q, Task task, String error, boolean deadLettered) {
                deadFlags.add(deadLettered);
            }
        };
        RetryPolicy retry = RetryPolicy.of(RetryPolicy.RetryType.LINEAR, Duration.ofSeconds(30), 3);
        BatchProcessor processor = new BatchProcessor(ds, QueueConfig.of(queue).withRetry(retry), batch -> {
            throw new IllegalStateException("cannot parse " + batch.tasks().get(0).payload());
        }, listener, Transactions.JDBC);
        for (int i = 0; i < 3; i++) {
            assertEquals(1, processor.runOnce());
            makeDue(id);
        }
        assertEquals(List.of(false, false, true), deadFlags);
        assertEquals(0, rows());
        DeadLetters dead = new DeadLetters(ds, queue);
        List<DeadTask> failed = dead.list(0, 10);
        assertEquals(1, failed.size());
        assertEquals(id, failed.get(0).id());
        assertEquals(3, failed.get(0).attempt());
        assertEquals("poison", failed.get(0).payload());
        assertEquals("IllegalStateException: cannot parse poison", failed.get(0).lastError());
        assertEquals(0, processor.runOnce(), "a dead task is not claimed again");
    }

    /**
     * A handler's StackOverflowError (a payload nested too deep for it) fails its batch, counted as an attempt. Passed
     * on as the JVM's errors are, it killed the worker on every claim of the task, and exactly once never counted it.
     */
    @ParameterizedTest
    @EnumSource(value = DeliveryMode.class, names = {"AT_LEAST_ONCE", "EXACTLY_ONCE"})
    void aHandlersStackOverflowFailsItsBatch(DeliveryMode mode) throws Exception {
        long id = producer.enqueue("nested too deep");
        RetryPolicy retry = RetryPolicy.of(RetryPolicy.RetryType.LINEAR, Duration.ofSeconds(30), 3);
        BatchProcessor processor = new BatchProcessor(ds, QueueConfig.of(queue).withMode(mode).withRetry(retry), batch -> {
            throw new StackOverflowError();
        }, QueueListener.NONE, Transactions.JDBC);
        assertEquals(1, processor.runOnce());
        assertEquals(1, TestDatabase.queryLong("SELECT attempt FROM " + table.name() + " WHERE id = " + id));
        assertTrue(secondsUntilDue(id) > 20, "retried after its backoff: " + secondsUntilDue(id) + " s");
    }

    @Test
    void aTaskAnsweredWithDeadLetterSkipsItsRetries() throws Exception {
        long id = producer.enqueue("unreadable");
        List<Boolean> deadFlags = new CopyOnWriteArrayList<>();
        QueueListener listener = new QueueListener() {
            @Override
            public void failed(QueueLocation q, Task task, String error, boolean deadLettered) {
                deadFlags.add(deadLettered);
            }
        };
        BatchProcessor processor = new BatchProcessor(ds, QueueConfig.of(queue), BatchHandler.perTask((task, batch) ->
                TaskResult.deadLetter("not JSON: " + task.payload())), listener, Transactions.JDBC);
        assertEquals(1, processor.runOnce());
        assertEquals(List.of(true), deadFlags, "dead-lettered on the first of " + RetryPolicy.DEFAULT.maxAttempts()
                + " attempts");
        assertEquals(0, rows());
        List<DeadTask> failed = new DeadLetters(ds, queue).list(0, 10);
        assertEquals(List.of(id), failed.stream().map(DeadTask::id).toList());
        assertEquals("not JSON: unreadable", failed.get(0).lastError());
    }

    /**
     * A handler that throws DeadLetterException sends the tasks it names to the dead letters at once; exactly once
     * after the batch rolled back (the handler's write, and the answer it gave the other task, with it), that task
     * then failing and waiting for its retry; at least once keeping the other task's answer.
     */
    @ParameterizedTest
    @EnumSource(value = DeliveryMode.class, names = {"AT_LEAST_ONCE", "EXACTLY_ONCE"})
    void aDeadLetterExceptionDeadLettersTheTasksItNamesAtOnce(DeliveryMode mode) throws Exception {
        long ok = producer.enqueue("ok");
        long poison = producer.enqueue("poison");
        String effects = table.name() + "_effects";
        TestDatabase.execute("DROP TABLE IF EXISTS " + effects + "; CREATE TABLE " + effects + " (payload text)");
        QueueConfig config = QueueConfig.of(queue).withMode(mode).withBatchSize(2)
                .withRetry(RetryPolicy.of(RetryPolicy.RetryType.LINEAR, Duration.ofHours(1), 5));
        BatchProcessor processor = processor(config, batch -> {
            for (Task task : batch.tasks()) {
                if (batch.mode() == DeliveryMode.EXACTLY_ONCE) {
                    Jdbc.update(batch.connection(), "INSERT INTO " + effects + " (payload) VALUES (?)", task.payload());
                }
                if (task.payload().equals("poison")) {
                    throw new DeadLetterException(task, new IllegalArgumentException("no such item"));
                }
                batch.answer(task, TaskResult.finish());
            }
        });
        assertEquals(2, processor.runOnce());
        List<DeadTask> dead = new DeadLetters(ds, queue).list(0, 10);
        assertEquals(List.of(poison), dead.stream().map(DeadTask::id).toList());
        assertEquals("IllegalArgumentException: no such item", dead.get(0).lastError());
        assertEquals(mode == DeliveryMode.EXACTLY_ONCE ? 1 : 0, TestDatabase.queryLong("SELECT count(*) FROM "
                + table.name() + " WHERE id = " + ok), "exactly once the other task's answer rolled back too");
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + effects
                + " WHERE payload = 'poison'"), "no write of the dead-lettered task's handling is kept");
        TestDatabase.execute("DROP TABLE " + effects);
    }

    /**
     * Exactly once, a batch whose commit fails (a deferred constraint the handler's SQL broke) is a failed attempt:
     * counted, retried and at the end dead-lettered, where the commit's SQLException went to the worker's crash path
     * and the batch, its attempt never counted, was handed out again forever.
     */
    @Test
    void exactlyOnceABatchWhoseCommitFailsIsAFailedAttempt() throws Exception {
        long id = producer.enqueue("breaks the constraint at commit");
        String effects = table.name() + "_effects";
        TestDatabase.execute("DROP TABLE IF EXISTS " + effects + "; CREATE TABLE " + effects
                + " (payload text, CONSTRAINT " + effects + "_once UNIQUE (payload) DEFERRABLE INITIALLY DEFERRED)");
        QueueConfig config = QueueConfig.of(queue).withMode(DeliveryMode.EXACTLY_ONCE)
                .withRetry(RetryPolicy.of(RetryPolicy.RetryType.LINEAR, Duration.ofHours(1), 2));
        BatchProcessor processor = processor(config, batch -> {
            for (Task task : batch.tasks()) {
                for (int i = 0; i < 2; i++) {
                    Jdbc.update(batch.connection(), "INSERT INTO " + effects + " (payload) VALUES (?)", task.payload());
                }
            }
        });
        assertEquals(1, processor.runOnce());
        assertEquals(1, TestDatabase.queryLong("SELECT attempt FROM " + table.name() + " WHERE id = " + id),
                "the failed commit counted the attempt");
        assertDueInAnHour(id);
        makeDue(id);
        assertEquals(1, processor.runOnce());
        assertEquals(List.of(id), new DeadLetters(ds, queue).list(0, 10).stream().map(DeadTask::id).toList());
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + effects), "nothing of the handler's kept");
        TestDatabase.execute("DROP TABLE " + effects);
    }

    /** A per-task handler's DeadLetterException at least once: its task is dead-lettered, the others answered. */
    @Test
    void aPerTaskHandlersDeadLetterExceptionDeadLettersItsTaskAtLeastOnce() throws Exception {
        long ok = producer.enqueue("ok");
        long poison = producer.enqueue("poison");
        BatchProcessor processor = processor(QueueConfig.of(queue).withBatchSize(2), BatchHandler.perTask((task, b) -> {
            if (task.payload().equals("poison")) {
                throw new DeadLetterException(task, new IllegalArgumentException("no such item"));
            }
            return TaskResult.finish();
        }));
        assertEquals(2, processor.runOnce());
        List<DeadTask> dead = new DeadLetters(ds, queue).list(0, 10);
        assertEquals(List.of(poison), dead.stream().map(DeadTask::id).toList());
        assertEquals("IllegalArgumentException: no such item", dead.get(0).lastError());
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + table.name() + " WHERE id = " + ok));
    }

    @Test
    void deadLettersCanBeRequeuedAndDeleted() throws Exception {
        List<Long> ids = producer.enqueueAll(List.of("a", "b", "c"));
        BatchProcessor processor = processor(QueueConfig.of(queue)
                        .withRetry(RetryPolicy.of(RetryPolicy.RetryType.LINEAR, Duration.ofSeconds(1), 1)),
                BatchHandler.perTask((task, b) -> TaskResult.fail("no")));
        assertEquals(3, processor.runOnce());
        DeadLetters dead = new DeadLetters(ds, queue);
        assertEquals(3, dead.count());
        assertEquals(1, dead.requeue(List.of(ids.get(0))));
        assertEquals(1, dead.delete(List.of(ids.get(1))));
        assertEquals(0, dead.delete(List.of(ids.get(0))), "requeued task is no longer dead");
        assertEquals(1, dead.count());
        assertEquals(1, rows());
        assertEquals(0, TestDatabase.queryLong("SELECT attempt FROM " + table.name()));
        assertEquals("a", claim(new TaskStore(queue), 10).get(0).payload());
        assertEquals(1, dead.requeueAll());
        assertEquals(0, dead.count());
        assertThrows(IllegalArgumentException.class, () -> dead.requeue(List.of()));
    }

    /** "All" goes a chunk at a time, where it was one statement holding every row's lock for its whole run. */
    @Test
    void requeueAllAndDeleteAllTakeEveryDeadLetterAChunkAtATime() throws Exception {
        int many = DeadLetters.MAX_PAGE + 5;
        String insert = "INSERT INTO " + table.deadLetterTable() + " (id, queue_name, payload, created_at, attempt,"
                + " reenqueue_attempt, total_attempt, last_error) SELECT %d + n, '" + queue.queueName() + "', 'p' || n,"
                + " now(), 3, 0, 3, 'failed' FROM generate_series(1, " + many + ") AS n";
        TestDatabase.execute(insert.formatted(1_000_000_000L));
        DeadLetters dead = new DeadLetters(ds, queue);
        assertEquals(many, dead.requeueAll());
        assertEquals(0, dead.count());
        assertEquals(many, rows());
        TestDatabase.execute(insert.formatted(2_000_000_000L));
        assertEquals(many, dead.deleteAll());
        assertEquals(0, dead.count());
    }

    @Test
    void exactlyOnceCommitsHandlerWorkWithTheFinishAndRollsBothBackOnFailure() throws Exception {
        TestDatabase.execute("DROP TABLE IF EXISTS effects; CREATE TABLE effects (task_id bigint PRIMARY KEY)");
        long id = producer.enqueue("pay");
        AtomicInteger calls = new AtomicInteger();
        QueueConfig config = QueueConfig.of(queue).withMode(DeliveryMode.EXACTLY_ONCE)
                .withRetry(RetryPolicy.of(RetryPolicy.RetryType.LINEAR, Duration.ofSeconds(30), 5));
        BatchProcessor processor = processor(config, batch -> {
            for (Task task : batch.tasks()) {
                Jdbc.update(batch.connection(), "INSERT INTO effects VALUES (?)", task.id());
            }
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("crash after the effect");
            }
        });
        assertEquals(1, processor.runOnce());
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM effects"), "effect rolled back");
        assertEquals(1, rows(), "task still queued");
        assertEquals(1, TestDatabase.queryLong("SELECT attempt FROM " + table.name()), "failed attempt recorded");
        assertTrue(secondsUntilDue(id) > 20, "retry scheduled by the policy");

        makeDue(id);
        assertEquals(1, processor.runOnce());
        assertEquals(1, TestDatabase.queryLong("SELECT count(*) FROM effects WHERE task_id = " + id));
        assertEquals(0, rows());
    }

    @Test
    void atMostOnceRemovesTheTaskWhenClaimedEvenIfTheHandlerFails() throws Exception {
        producer.enqueueAll(List.of("x", "y"));
        List<String> failures = new CopyOnWriteArrayList<>();
        BatchProcessor processor = new BatchProcessor(ds, QueueConfig.of(queue).withMode(DeliveryMode.AT_MOST_ONCE),
                batch -> {
                    throw new IllegalStateException("lost");
                }, new QueueListener() {
                    @Override
                    public void failed(QueueLocation q, Task task, String error, boolean deadLettered) {
                        failures.add(task.payload());
                    }
                }, Transactions.JDBC);
        assertEquals(2, processor.runOnce());
        assertEquals(0, rows());
        assertEquals(0, new DeadLetters(ds, queue).count());
        assertEquals(List.of("x", "y"), failures);
    }

    @Test
    void enqueueInTheCallersTransactionRollsBackWithIt() throws Exception {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            producer.enqueue(c, "rolled back");
            producer.enqueueAll(c, List.of("also rolled back"), Duration.ZERO);
            c.rollback();
            producer.enqueue(c, "committed");
            c.commit();
            c.setAutoCommit(true);
        }
        assertEquals(1, rows());
        assertEquals("committed", claim(new TaskStore(queue), 10).get(0).payload());
    }

    @Test
    void aKeyReusedWithAnotherFingerprintIsRefusedAndNothingOfItsBatchIsStored() throws Exception {
        QueueProducer.Enqueued first = producer.enqueueOnce("k1", "hash-a", "first");
        assertEquals(new QueueProducer.Enqueued(first.id(), false), producer.enqueueOnce("k1", "hash-a", "first again"));
        IdempotencyKeyReusedException reused = assertThrows(IdempotencyKeyReusedException.class,
                () -> producer.enqueueOnce("k1", "hash-b", "second"));
        assertEquals("k1", reused.key());
        assertEquals(first.id(), reused.taskId());
        // In a batch, the new key beside the reused one is not stored either.
        reused = assertThrows(IdempotencyKeyReusedException.class, () -> producer.enqueueAllOnce(
                List.of("k2", "k1"), List.of("hash-c", "hash-b"), List.of("new", "second"), Duration.ZERO));
        assertEquals("k1", reused.key());
        assertEquals(1, rows());
        assertEquals(1, TestDatabase.queryLong("SELECT count(*) FROM " + table.keysTable()));
        // A key without a fingerprint, stored or sent, matches any.
        assertEquals(first.id(), producer.enqueueOnce("k1", "first").id());
        long unfingerprinted = producer.enqueueOnce("k3", "third").id();
        assertEquals(List.of(false, true), producer.enqueueAllOnce(List.of("k3", "k2"), List.of("hash-d", "hash-c"),
                List.of("third", "new"), Duration.ZERO).stream().map(QueueProducer.Enqueued::stored).toList());
        assertEquals(unfingerprinted, producer.enqueueOnce("k3", "hash-e", "third").id());
        assertEquals(3, rows());
    }

    @Test
    void reenqueueRunsTheTaskAgainLaterWithAFreshAttemptCounter() throws Exception {
        long id = producer.enqueue("poll me");
        BatchProcessor processor = processor(QueueConfig.of(queue),
                BatchHandler.perTask((task, b) -> TaskResult.reenqueue(Duration.ofSeconds(60))));
        assertEquals(1, processor.runOnce());
        assertEquals(0, TestDatabase.queryLong("SELECT attempt FROM " + table.name()));
        assertEquals(1, TestDatabase.queryLong("SELECT reenqueue_attempt FROM " + table.name()));
        assertTrue(Math.abs(secondsUntilDue(id) - 60) < 5);
    }

    @Test
    void badInputFailsWithTheFieldNamedAndWritesNothing() throws Exception {
        List<String> withNul = new ArrayList<>(List.of("ok", "ok", "bad\0bad"));
        IllegalArgumentException nul = assertThrows(IllegalArgumentException.class, () -> producer.enqueueAll(withNul));
        assertEquals("payload[2] contains a NUL character (U+0000) at index 3, which PostgreSQL text cannot store",
                nul.getMessage());
        List<String> withNull = new ArrayList<>(List.of("ok"));
        withNull.add(null);
        assertEquals("payload[1] must not be null",
                assertThrows(IllegalArgumentException.class, () -> producer.enqueueAll(withNull)).getMessage());
        assertEquals("payload must not be null",
                assertThrows(IllegalArgumentException.class, () -> producer.enqueue(null)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> producer.enqueueAll(List.of())).getMessage()
                .startsWith("batch size must be between 1 and"));
        List<String> tooMany = java.util.Collections.nCopies(QueueProducer.MAX_BATCH_SIZE + 1, "x");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> producer.enqueueAll(tooMany)).getMessage()
                .startsWith("batch size must be between 1 and"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> producer.enqueue("x", Duration.ofSeconds(-1)))
                .getMessage().startsWith("delay must be zero or positive"));
        assertEquals(0, rows(), "nothing written");
    }

    private BatchProcessor processor(QueueConfig config, BatchHandler handler) {
        return new BatchProcessor(ds, config, handler, QueueListener.NONE, Transactions.JDBC);
    }

    private List<Task> claim(TaskStore store, int limit) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return store.claim(c, limit, DeliveryMode.AT_LEAST_ONCE, Duration.ofMinutes(5));
        }
    }

    private long rows() throws SQLException {
        return TestDatabase.queryLong("SELECT count(*) FROM " + table.name());
    }

    private double secondsUntilDue(long id) throws SQLException {
        try (Connection c = ds.getConnection(); var st = c.createStatement();
             var rs = st.executeQuery("SELECT extract(epoch FROM next_process_at - now()) FROM " + table.name()
                     + " WHERE id = " + id)) {
            assertTrue(rs.next(), "task " + id + " is not in the queue");
            return rs.getDouble(1);
        }
    }

    private void makeDue(long id) throws SQLException {
        TestDatabase.execute("UPDATE " + table.name() + " SET next_process_at = now() WHERE id = " + id);
    }

    private static List<Long> ids(List<Task> tasks) {
        return tasks.stream().map(Task::id).collect(Collectors.toList());
    }
}
