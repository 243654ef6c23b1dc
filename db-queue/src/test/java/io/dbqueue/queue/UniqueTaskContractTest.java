package io.dbqueue.queue;

import io.dbqueue.Await;
import io.dbqueue.TestDatabase;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.Transactions;
import io.dbqueue.queue.QueueProducer.Enqueued;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Unique tasks ({@link Uniqueness}): each scope and each answer to a repeat, on every layout against a real PostgreSQL. */
class UniqueTaskContractTest extends EveryLayout {

    private static final Duration HOUR = Duration.ofHours(1);

    private TaskStore store;

    @Override
    String queueName() {
        return "unique";
    }

    @BeforeEach
    void store() {
        store = new TaskStore(queue);
    }

    @Test
    void replaceSetsTheWaitingTasksPayloadAndDueTimeAndAnswersItsId() throws Exception {
        Enqueued first = producer.enqueueOnce("k", "v1", HOUR, Uniqueness.DEBOUNCE);
        assertEquals(new Enqueued(first.id(), true, false), first);
        assertEquals(new Enqueued(first.id(), false, true), producer.enqueueOnce("k", "v2", HOUR.multipliedBy(2),
                Uniqueness.DEBOUNCE));
        assertEquals("v2", payload(first.id()));
        double dueIn = secondsUntilDue(first.id());
        assertTrue(dueIn > 7200 - 60 && dueIn <= 7200, "due in " + dueIn + " s, expected two hours");
        // Due now: the last payload is the one a worker gets.
        assertTrue(producer.enqueueOnce("k", "v3", Duration.ZERO, Uniqueness.DEBOUNCE).replaced());
        List<Task> claimed = claim(DeliveryMode.AT_LEAST_ONCE);
        assertEquals(List.of("v3"), claimed.stream().map(Task::payload).toList());
        assertEquals(1, rows());
        // Another key of the queue is another task.
        assertTrue(producer.enqueueOnce("other", "x", HOUR, Uniqueness.DEBOUNCE).stored());
    }

    @Test
    void keepFirstAnswersWithTheWaitingTaskAsItIs() throws Exception {
        for (Uniqueness keep : List.of(Uniqueness.WHILE_WAITING, Uniqueness.WHILE_WAITING_OR_RUNNING, Uniqueness.WINDOW)) {
            String key = "keep-" + keep.scope();
            long id = producer.enqueueOnce(key, "first", HOUR, keep).id();
            assertEquals(new Enqueued(id, false, false), producer.enqueueOnce(key, "second", Duration.ZERO, keep), key);
            assertEquals("first", payload(id));
            assertTrue(secondsUntilDue(id) > 3000, "the due time stays");
        }
        assertEquals(3, rows());
    }

    @Test
    void whileWaitingFreesTheKeyOnceItsTaskIsClaimed() throws Exception {
        long first = producer.enqueueOnce("w", "first", Duration.ZERO, Uniqueness.WHILE_WAITING).id();
        assertEquals(List.of(first), ids(claim(DeliveryMode.AT_LEAST_ONCE)));
        Enqueued second = producer.enqueueOnce("w", "second", Duration.ZERO, Uniqueness.DEBOUNCE);
        assertTrue(second.stored(), "a leased task does not hold the key");
        assertNotEquals(first, second.id());
        assertEquals(new Enqueued(second.id(), false, false), producer.enqueueOnce("w", "third", Duration.ZERO,
                Uniqueness.WHILE_WAITING), "the new task holds it while it waits");
        assertEquals(second.id(), new QueueAdmin(ds, queue).taskIdOfKey("w").orElseThrow());
        // Exactly once holds its tasks by a row lock and writes no lease: that is running too.
        try (Connection batch = ds.getConnection()) {
            batch.setAutoCommit(false);
            assertEquals(List.of(second.id()), ids(store.claim(batch, 10, DeliveryMode.EXACTLY_ONCE, HOUR)));
            Enqueued third = producer.enqueueOnce("w", "third", Duration.ZERO, Uniqueness.DEBOUNCE);
            assertTrue(third.stored());
            assertEquals(new Enqueued(third.id(), false, false), producer.enqueueOnce("w", "fourth", HOUR,
                    Uniqueness.WHILE_WAITING));
            batch.rollback();
        }
        assertEquals(3, rows());
    }

    @Test
    void whileWaitingOrRunningFreesTheKeyOnceItsTaskIsFinishedOrDeadLettered() throws Exception {
        Uniqueness scope = Uniqueness.WHILE_WAITING_OR_RUNNING;
        long first = producer.enqueueOnce("r", "first", Duration.ZERO, scope).id();
        List<Task> running = claim(DeliveryMode.AT_LEAST_ONCE);
        assertEquals(List.of(first), ids(running));
        assertEquals(new Enqueued(first, false, false), producer.enqueueOnce("r", "again", Duration.ZERO, scope.replacing()),
                "a running task holds the key and is not replaced");
        assertEquals("first", payload(first));
        try (Connection c = ds.getConnection()) {
            store.finish(c, running);
        }
        Enqueued second = producer.enqueueOnce("r", "second", Duration.ZERO, scope);
        assertTrue(second.stored(), "a finished task frees its key");
        // Dead-lettered: out of the queue, so the key is free again.
        BatchProcessor deadLettering = new BatchProcessor(ds, QueueConfig.of(queue),
                BatchHandler.perTask((task, batch) -> TaskResult.deadLetter("unreadable")), QueueListener.NONE,
                Transactions.JDBC);
        assertEquals(1, deadLettering.runOnce());
        assertEquals(1, new DeadLetters(ds, queue).count());
        Enqueued third = producer.enqueueOnce("r", "third", Duration.ZERO, scope);
        assertTrue(third.stored(), "a dead-lettered task frees its key");
        assertEquals(3, Stream.of(first, second.id(), third.id()).distinct().count());
        // The default scope keeps answering with the first task, finished or not.
        long windowed = producer.enqueueOnce("window", "x").id();
        assertEquals(2, new BatchProcessor(ds, QueueConfig.of(queue).withBatchSize(10), batch -> { },
                QueueListener.NONE, Transactions.JDBC).runOnce(), "third's and window's tasks finished");
        assertEquals(new Enqueued(windowed, false, false), producer.enqueueOnce("window", "y", Duration.ZERO,
                Uniqueness.WINDOW.replacing()));
        assertEquals(0, rows());
    }

    @Test
    void fingerprintsAreComparedWhereTheKeyAnswersWithItsTaskUnchanged() throws Exception {
        Uniqueness scope = Uniqueness.WHILE_WAITING;
        long id = producer.enqueueAllOnce(List.of("f"), List.of("hash-a"), List.of("a"), HOUR, scope).get(0).id();
        IdempotencyKeyReusedException reused = assertThrows(IdempotencyKeyReusedException.class, () ->
                producer.enqueueAllOnce(List.of("f"), List.of("hash-b"), List.of("b"), HOUR, scope));
        assertEquals(id, reused.taskId());
        // In a batch, the new key beside the reused one is not stored either.
        assertThrows(IdempotencyKeyReusedException.class, () -> producer.enqueueAllOnce(List.of("g", "f"),
                List.of("hash-g", "hash-b"), List.of("g", "b"), HOUR, scope));
        assertEquals(1, rows());
        assertEquals(1, TestDatabase.queryLong("SELECT count(*) FROM " + table.keysTable()));
        assertTrue(producer.enqueueAllOnce(List.of("f"), List.of("hash-b"), List.of("b"), Duration.ZERO,
                scope.replacing()).get(0).replaced(), "a replacing repeat is another request by design");
        assertEquals("b", payload(id));
        assertEquals(new Enqueued(id, false, false), producer.enqueueAllOnce(List.of("f"), List.of("hash-b"),
                List.of("b"), Duration.ZERO, scope).get(0), "the key stands for the request that replaced the task");
        assertEquals(List.of(id), ids(claim(DeliveryMode.AT_MOST_ONCE)));
        assertTrue(producer.enqueueAllOnce(List.of("f"), List.of("hash-c"), List.of("c"), HOUR, scope).get(0).stored(),
                "a free key is a new key");
    }

    @Test
    void aBatchAnswersEachKeyByItsOwnTasksState() throws Exception {
        long waiting = producer.enqueueOnce("a", "a1", Duration.ZERO, Uniqueness.DEBOUNCE).id();
        long running = producer.enqueueOnce("b", "b1", HOUR, Uniqueness.DEBOUNCE).id();
        TestDatabase.execute("UPDATE " + table.name() + " SET attempt = 1 WHERE id = " + running);
        List<Enqueued> answers = producer.enqueueAllOnce(List.of("c", "b", "a", "c"), null,
                List.of("c1", "b2", "a2", "c2"), HOUR, Uniqueness.DEBOUNCE);
        assertTrue(answers.get(0).stored());
        assertTrue(answers.get(1).stored() && answers.get(1).id() != running, "b's task runs: b is free");
        assertEquals(new Enqueued(waiting, false, true), answers.get(2));
        assertEquals(new Enqueued(answers.get(0).id(), false, false), answers.get(3), "a key twice in one batch is one task");
        assertEquals("c2", payload(answers.get(0).id()), "replacing, with the payload of the key's last occurrence");
        assertEquals("a2", payload(waiting));
        assertEquals(4, rows());
    }

    @Test
    void aKeyTwiceInABatchThatKeepsTheFirstKeepsTheFirstPayload() throws Exception {
        List<Enqueued> answers = producer.enqueueAllOnce(List.of("k", "k"), null, List.of("k1", "k2"), HOUR,
                Uniqueness.WHILE_WAITING);
        assertEquals(new Enqueued(answers.get(0).id(), false, false), answers.get(1));
        assertEquals("k1", payload(answers.get(0).id()));
        assertEquals(1, rows());
    }

    /**
     * Producers sending one key at once, as a new key, a waiting task's key and a running task's (free under
     * WHILE_WAITING): one task each time, and every producer answered with it.
     */
    @Test
    void producersSendingOneKeyAtOnceStoreOneTask() throws Exception {
        int producers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(producers);
        try {
            for (Uniqueness mode : List.of(Uniqueness.WHILE_WAITING, Uniqueness.DEBOUNCE, Uniqueness.WHILE_WAITING_OR_RUNNING)) {
                for (int round = 0; round < 5; round++) {
                    String key = mode + "-" + round;
                    List<Enqueued> newKey = together(pool, producers, () -> producer.enqueueOnce(key, "p", HOUR, mode));
                    long id = oneStored(newKey, key);
                    List<Enqueued> waiting = together(pool, producers, () -> producer.enqueueOnce(key, "p", HOUR, mode));
                    assertTrue(waiting.stream().allMatch(e -> e.id() == id && !e.stored()), key + ": " + waiting);
                    TestDatabase.execute("UPDATE " + table.name() + " SET attempt = 1 WHERE id = " + id);
                    List<Enqueued> afterClaim = together(pool, producers, () -> producer.enqueueOnce(key, "p", HOUR, mode));
                    if (mode.scope() == Uniqueness.Scope.WHILE_WAITING) {
                        assertNotEquals(id, oneStored(afterClaim, key));
                    } else {
                        assertTrue(afterClaim.stream().allMatch(e -> e.id() == id && !e.stored()), key + ": " + afterClaim);
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(2 * 5 * 2 + 5, rows(), "two tasks per round freed at claim, one per round held while running");
    }

    /**
     * A task whose lease ran out is due again while its handler may still run: a replacing repeat stores a new task
     * instead of replacing it, where it used to replace it in place and the late handler's finish then deleted the
     * repeat's payload. A repeat that keeps the first still answers with it.
     */
    @Test
    void aTaskWhoseLeaseRanOutIsNotReplacedUnderItsHandler() throws Exception {
        long first = producer.enqueueOnce("lapsed", "v1", Duration.ZERO, Uniqueness.WHILE_WAITING_OR_RUNNING).id();
        List<Task> running;
        try (Connection c = ds.getConnection()) {
            running = store.claim(c, 10, DeliveryMode.AT_LEAST_ONCE, Duration.ofNanos(1000));
        }
        assertEquals(List.of(first), ids(running));
        assertTrue(secondsUntilDue(first) < 0, "the lease ran out");
        assertEquals(new Enqueued(first, false, false), producer.enqueueOnce("lapsed", "kept", Duration.ZERO,
                Uniqueness.WHILE_WAITING));
        assertEquals(new Enqueued(first, false, false), producer.enqueueOnce("lapsed", "v2", Duration.ZERO,
                Uniqueness.WHILE_WAITING_OR_RUNNING.replacing()), "counted as running, not replaced");
        Enqueued debounced = producer.enqueueOnce("lapsed", "v3", Duration.ZERO, Uniqueness.DEBOUNCE);
        assertTrue(debounced.stored(), "a new task beside the one that may be running");
        assertEquals("v1", payload(first));
        try (Connection c = ds.getConnection()) {
            store.finish(c, running);
        }
        assertEquals(1, rows());
        assertEquals("v3", payload(debounced.id()));
    }

    /**
     * A waiting task that another transaction holds without claiming it (an update that changes no key, as an
     * operator's reschedule or ageing does) is still waiting: a replacing repeat replaces it once that transaction
     * ends, where it used to read the lock as a worker's and store a second task beside it.
     */
    @Test
    void aWaitingTaskAnUpdateHoldsIsReplacedNotDoubled() throws Exception {
        long id = producer.enqueueOnce("held", "v1", HOUR, Uniqueness.DEBOUNCE).id();
        try (Connection other = ds.getConnection()) {
            other.setAutoCommit(false);
            try (Statement lock = other.createStatement()) {
                lock.execute("SELECT 1 FROM " + table.name() + " WHERE id = " + id + " FOR NO KEY UPDATE");
            }
            CompletableFuture<Enqueued> mine = CompletableFuture.supplyAsync(() -> producer.enqueueOnce("held", "v2",
                    HOUR, Uniqueness.DEBOUNCE));
            Await.until(Duration.ofSeconds(30), "the repeat answered, or waiting for the other transaction",
                    () -> mine.isDone() || uniqueEnqueuesWaitingOnALock() == 1);
            other.commit();
            assertEquals(new Enqueued(id, false, true), mine.get(30, TimeUnit.SECONDS));
        }
        assertEquals("v2", payload(id));
        assertEquals(1, rows());
    }

    /**
     * An operator's reschedule in a transaction not yet committed holds the task as its update does: a replacing
     * repeat waits for it and replaces the task, where it used to read the lock as a worker's and store a second
     * task. On layouts whose unique index holds the due time the update itself locks FOR UPDATE, and the task reads
     * as running while it lasts.
     */
    @Test
    void aRescheduleInProgressLeavesTheTaskToBeReplaced() throws Exception {
        long id = producer.enqueueOnce("moved", "v1", HOUR, Uniqueness.DEBOUNCE).id();
        CompletableFuture<Enqueued> repeat;
        try (Connection operator = ds.getConnection()) {
            operator.setAutoCommit(false);
            try (PreparedStatement reschedule = operator.prepareStatement(new QueueSql(table).reschedule)) {
                int p = 1;
                reschedule.setObject(p++, OffsetDateTime.now(ZoneOffset.UTC).plusHours(2));
                reschedule.setString(p++, queue.queueName());
                reschedule.setLong(p++, id);
                if (reschedule.getParameterMetaData().getParameterCount() == p) {
                    reschedule.setString(p, queue.queueName());
                }
                assertEquals(1, reschedule.executeUpdate());
            }
            repeat = CompletableFuture.supplyAsync(() -> producer.enqueueOnce("moved", "v2", HOUR,
                    Uniqueness.DEBOUNCE));
            Await.until(Duration.ofSeconds(30), "the repeat answered, or waiting for the reschedule",
                    () -> repeat.isDone() || uniqueEnqueuesWaitingOnALock() == 1);
            operator.commit();
        }
        Enqueued answer = repeat.get(30, TimeUnit.SECONDS);
        if (TestDatabase.queryLong("SELECT count(*) FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
                + " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = '" + table.name() + "'::regclass AND i.indisunique"
                + " AND a.attname = 'next_process_at'") > 0) {
            assertTrue(answer.stored(), "a unique index holds the due time: " + answer);
            assertEquals(2, rows());
        } else {
            assertEquals(new Enqueued(id, false, true), answer);
            assertEquals("v2", payload(id));
            assertEquals(1, rows());
        }
    }

    /**
     * A task that a claim under a per-key limit has leased, in a transaction not yet committed, is running: a
     * replacing repeat stores a task beside it. That claim used to lease its rows without locking them first, so the
     * repeat read the task as waiting, waited for the claim to commit, and then wrote its payload and due time over
     * the leased task's, a payload no worker would get.
     */
    @Test
    void aTaskAKeyLimitedClaimLeasesIsRunningNotReplaced() throws Exception {
        long id = producer.enqueueOnce("leased", "v1", Duration.ZERO, Uniqueness.DEBOUNCE).id();
        try (Connection claimer = ds.getConnection()) {
            claimer.setAutoCommit(false);
            assertEquals(List.of(id), ids(store.claimKeyLimited(claimer, 10, Duration.ofMinutes(5),
                    QueueLimits.perKey("customer", 1))));
            CompletableFuture<Enqueued> repeat = CompletableFuture.supplyAsync(() -> producer.enqueueOnce("leased",
                    "v2", Duration.ZERO, Uniqueness.DEBOUNCE));
            Await.until(Duration.ofSeconds(30), "the repeat answered, or waiting for the claim",
                    () -> repeat.isDone() || uniqueEnqueuesWaitingOnALock() == 1);
            claimer.commit();
            Enqueued answer = repeat.get(30, TimeUnit.SECONDS);
            assertTrue(answer.stored(), "a task of its own, not the leased one replaced: " + answer);
        }
        assertEquals("v1", payload(id));
        assertEquals(2, rows());
    }

    /**
     * A producer that waits on a key another one holds acts on what that one committed: here a task it could not
     * see when its statement began, a new key's and a freed key's, whose payload it replaces.
     */
    @Test
    void aProducerWaitingOnAnothersKeyReplacesTheTaskThatOneCommitted() throws Exception {
        long claimed = producer.enqueueOnce("freed", "old", Duration.ZERO, Uniqueness.WHILE_WAITING).id();
        assertEquals(List.of(claimed), ids(claim(DeliveryMode.AT_LEAST_ONCE)));
        for (String key : List.of("new", "freed")) {
            try (Connection other = ds.getConnection()) {
                other.setAutoCommit(false);
                Enqueued theirs = producer.enqueueAllOnce(other, List.of(key), List.of("theirs"), HOUR,
                        Uniqueness.WHILE_WAITING).get(0);
                assertTrue(theirs.stored(), key);
                CompletableFuture<Enqueued> mine = CompletableFuture.supplyAsync(() -> producer.enqueueOnce(key, "mine",
                        HOUR, Uniqueness.DEBOUNCE));
                Await.until(Duration.ofSeconds(30), "the producer waits on the other's key",
                        () -> uniqueEnqueuesWaitingOnALock() == 1);
                other.commit();
                assertEquals(new Enqueued(theirs.id(), false, true), mine.get(30, TimeUnit.SECONDS), key);
                assertEquals("mine", payload(theirs.id()));
            }
        }
        assertEquals(3, rows());
    }

    /**
     * Two producers taking one pair of keys in opposite orders: a transaction that stored key "a" and then waits on
     * key "b", and a batch of both whose statement holds "b" (it existed) and waits on "a" (stored after that
     * statement's snapshot). PostgreSQL fails the batch's statement to break the deadlock (the other transaction
     * waits longer before it looks for one); the producer writes the batch again, and both enqueues answer with the
     * tasks that were there.
     */
    @Test
    void aWriteFailedToBreakADeadlockIsDoneAgain() throws Exception {
        long b = producer.enqueueOnce("b", "first", HOUR, Uniqueness.WHILE_WAITING).id();
        try (Connection other = ds.getConnection()) {
            other.setAutoCommit(false);
            try (Statement patient = other.createStatement()) {
                patient.execute("SET LOCAL deadlock_timeout = '20s'");
            }
            long a = producer.enqueueAllOnce(other, List.of("a"), List.of("theirs"), HOUR, Uniqueness.WHILE_WAITING)
                    .get(0).id();
            CompletableFuture<List<Enqueued>> batch = CompletableFuture.supplyAsync(() -> producer.enqueueAllOnce(
                    List.of("a", "b"), null, List.of("mine", "mine"), HOUR, Uniqueness.WHILE_WAITING));
            Await.until(Duration.ofSeconds(30), "the batch holds b and waits on a",
                    () -> uniqueEnqueuesWaitingOnALock() == 1);
            assertEquals(List.of(new Enqueued(b, false, false)), producer.enqueueAllOnce(other, List.of("b"),
                    List.of("theirs"), HOUR, Uniqueness.WHILE_WAITING));
            other.commit();
            assertEquals(List.of(new Enqueued(a, false, false), new Enqueued(b, false, false)),
                    batch.get(30, TimeUnit.SECONDS));
        }
        assertEquals(2, rows());
    }

    private static List<Enqueued> together(ExecutorService pool, int n, java.util.concurrent.Callable<Enqueued> send)
            throws Exception {
        CyclicBarrier start = new CyclicBarrier(n);
        List<Future<Enqueued>> sent = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            sent.add(pool.submit(() -> {
                start.await(30, TimeUnit.SECONDS);
                return send.call();
            }));
        }
        List<Enqueued> answers = new ArrayList<>();
        for (Future<Enqueued> answer : sent) {
            answers.add(answer.get(60, TimeUnit.SECONDS));
        }
        return answers;
    }

    /** The id that exactly one of {@code answers} stored and all answer with. */
    private static long oneStored(List<Enqueued> answers, String key) {
        assertEquals(1, answers.stream().filter(Enqueued::stored).count(), key + ": " + answers);
        long id = answers.get(0).id();
        assertTrue(answers.stream().allMatch(e -> e.id() == id), key + ": " + answers);
        return id;
    }

    private List<Task> claim(DeliveryMode mode) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return store.claim(c, 10, mode, Duration.ofMinutes(5));
        }
    }

    /** Unique enqueue statements (they open with {@code WITH mode}) waiting on a lock now. */
    private static long uniqueEnqueuesWaitingOnALock() throws SQLException {
        return TestDatabase.queryLong("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                + " AND query LIKE 'WITH mode%'");
    }

    private long rows() throws SQLException {
        return TestDatabase.queryLong("SELECT count(*) FROM " + table.name());
    }

    private String payload(long id) throws SQLException {
        return TestDatabase.queryString("SELECT payload FROM " + table.name() + " WHERE id = " + id);
    }

    private double secondsUntilDue(long id) throws SQLException {
        return TestDatabase.queryDouble("SELECT extract(epoch FROM next_process_at - now()) FROM " + table.name()
                + " WHERE id = " + id);
    }

    private static List<Long> ids(List<Task> tasks) {
        return tasks.stream().map(Task::id).toList();
    }
}
