package io.dbqueue.queue;

import io.dbqueue.Await;
import io.dbqueue.DbQueue;
import io.dbqueue.TestDatabase;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.InvalidValueException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Priorities on every layout that has them, against a real PostgreSQL. */
@ParameterizedClass(name = "{0}")
@MethodSource("layouts")
class QueuePriorityTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Parameter
    Layout layout;

    private final DataSource ds = TestDatabase.dataSource();
    private QueueLocation queue;
    private DbQueue dbq;
    private QueueProducer producer;

    static Stream<Layout> layouts() {
        return Layout.presets().stream().filter(Layout::priorities);
    }

    @BeforeEach
    void freshTable() throws SQLException {
        queue = TestDatabase.freshTable(layout).queue("priorities");
        dbq = DbQueue.builder(ds).build();
        producer = dbq.producer(queue);
    }

    @AfterEach
    void closeDoor() {
        if (dbq != null) { // null: the layout was skipped before the door opened
            dbq.close();
        }
    }

    @ParameterizedTest
    @EnumSource(DeliveryMode.class)
    void higherPriorityIsClaimedFirstAndFifoWithinAPriority(DeliveryMode mode) throws Exception {
        // Interleaved: a low, a high, a middle, a default (0) task, and again, so that neither id
        // order nor any single level's order is the claim order.
        List<String> expected = new ArrayList<>();
        List<String> low = new ArrayList<>();
        List<String> middle = new ArrayList<>();
        List<String> high = new ArrayList<>();
        List<String> none = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            producer.enqueue("low-" + i, -3);
            low.add("low-" + i);
            producer.enqueueAll(List.of("high-" + i + "a", "high-" + i + "b"), Duration.ZERO, 7);
            high.addAll(List.of("high-" + i + "a", "high-" + i + "b"));
            producer.enqueue("middle-" + i, 2);
            middle.add("middle-" + i);
            producer.enqueue("none-" + i);
            none.add("none-" + i);
        }
        Stream.of(high, middle, none, low).forEach(expected::addAll);

        List<String> seen = new CopyOnWriteArrayList<>();
        List<Integer> priorities = new CopyOnWriteArrayList<>();
        // Batches of 4 cross the levels' borders: the order holds across claims and within a batch.
        try (QueueWorkers ignored = dbq.consume(QueueConfig.of(queue).withMode(mode).withBatchSize(4),
                BatchHandler.perTask((task, b) -> {
                    seen.add(task.payload());
                    priorities.add(task.priority());
                    return TaskResult.finish();
                }))) {
            Await.until(TIMEOUT, "all 25 tasks processed", () -> seen.size() == expected.size());
        }
        assertEquals(expected, seen);
        assertEquals(Stream.of(List.of(7, 10), List.of(2, 5), List.of(0, 5), List.of(-3, 5))
                .flatMap(p -> IntStream.range(0, p.get(1)).mapToObj(i -> p.get(0))).toList(), priorities);
    }

    @Test
    void aDelayedHighPriorityTaskWaitsUntilDueAndKeepsItsPriorityThen() throws Exception {
        producer.enqueueAll(List.of("later"), Duration.ofMillis(300), 9);
        producer.enqueue("now", 1);
        List<String> seen = new CopyOnWriteArrayList<>();
        try (QueueWorkers ignored = dbq.consume(QueueConfig.of(queue).withBatchSize(1), batch ->
                batch.tasks().forEach(t -> seen.add(t.payload())))) {
            Await.until(TIMEOUT, "both tasks processed", () -> seen.size() == 2);
        }
        assertEquals(List.of("now", "later"), seen);
    }

    @Test
    void aRetriedTaskKeepsItsPriority() throws Exception {
        producer.enqueue("flaky", 5);
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        try (QueueWorkers ignored = dbq.consume(QueueConfig.of(queue)
                        .withRetry(RetryPolicy.of(RetryPolicy.RetryType.LINEAR, Duration.ofMillis(10), 5)),
                BatchHandler.perTask((task, b) -> {
                    attempts.add(task.priority());
                    return attempts.size() == 1 ? TaskResult.fail("once") : TaskResult.finish();
                }))) {
            Await.until(TIMEOUT, "the retry processed", () -> attempts.size() == 2);
        }
        assertEquals(List.of(5, 5), attempts);
    }

    /** A dead letter keeps its task's priority: requeued, the task comes back at it, not at 0. */
    @Test
    void aRequeuedDeadLetterComesBackAtItsPriority() throws Exception {
        assertEquals(5, requeuedPriority(deadLetter(producer.enqueue("poison", 5))));
    }

    /**
     * A dead-letter table created before dead letters kept priorities still takes them, at priority 0 when requeued;
     * createIfMissing adds the column.
     */
    @Test
    void aDeadLetterTableFromBeforeKeepsWorkingAndIsMigrated() throws Exception {
        QueueTable table = queue.table();
        TestDatabase.execute("ALTER TABLE " + table.deadLetterTable() + " DROP COLUMN priority");
        assertEquals(0, requeuedPriority(deadLetter(producer.enqueue("poison", 5))));
        Schema.createIfMissing(ds, table);
        assertEquals(1, TestDatabase.queryLong("SELECT count(*) FROM information_schema.columns WHERE table_name = '"
                + table.deadLetterTable() + "' AND column_name = 'priority'"));
    }

    private long deadLetter(long id) throws SQLException {
        TaskStore store = new TaskStore(queue);
        try (Connection c = ds.getConnection()) {
            List<Task> claimed = store.claim(c, 10, DeliveryMode.AT_LEAST_ONCE, Duration.ofMinutes(5));
            store.deadLetter(c, Map.of(claimed.get(0), "poison"));
        }
        return id;
    }

    private long requeuedPriority(long id) throws SQLException {
        assertEquals(1, dbq.queueAdmin(queue).deadLetters().requeue(List.of(id)));
        return TestDatabase.queryLong("SELECT priority FROM " + queue.table().name() + " WHERE id = " + id);
    }

    @Test
    void aPrioritizedEnqueueInTheCallersTransactionIsStoredOnlyWithItsCommit() throws Exception {
        QueueMonitor monitor = new QueueMonitor(ds, queue);
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            producer.enqueueAll(c, List.of("rolled back"), Duration.ZERO, 3);
            c.rollback();
            producer.enqueueAll(c, List.of("committed"), Duration.ZERO, 3);
            c.commit();
        }
        assertEquals(List.of("committed"), monitor.peek(10).stream().map(Task::payload).toList());
        assertEquals(List.of(3), monitor.peek(10).stream().map(Task::priority).toList());
    }

    @Test
    void aPriorityOutsideSmallintIsRefusedAndNothingIsStored() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> producer.enqueue("x", QueueProducer.MAX_PRIORITY + 1));
        assertTrue(e.getMessage().startsWith("priority must be between -32768 and 32767"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> producer.enqueue("x", QueueProducer.MIN_PRIORITY - 1));
        assertEquals(0, new QueueMonitor(ds, queue).depth().tasks());
    }

    /**
     * Strict priorities starve: while a higher priority is always due, a lower one is never claimed.
     * The handler keeps one high-priority task due by enqueuing the next before it finishes, so the
     * load is constant without any timing; the low task runs only once that load stops.
     */
    @Test
    void aLowPriorityTaskWaitsAsLongAsAHigherPriorityIsDue() throws Exception {
        int highLoad = 200;
        producer.enqueue("low", 0);
        producer.enqueue("high", 1);
        List<String> seen = new CopyOnWriteArrayList<>();
        AtomicInteger highs = new AtomicInteger();
        try (QueueWorkers ignored = dbq.consume(QueueConfig.of(queue).withBatchSize(1),
                BatchHandler.perTask((task, b) -> {
                    if (task.priority() == 1 && highs.incrementAndGet() < highLoad) {
                        producer.enqueue("high", 1);
                    }
                    seen.add(task.payload());
                    return TaskResult.finish();
                }))) {
            Await.until(TIMEOUT, "the load and then the low task processed", () -> seen.size() == highLoad + 1);
        }
        assertFalse(seen.subList(0, highLoad).contains("low"), "low ran while a higher priority was due");
        assertEquals("low", seen.get(highLoad));
    }
    /**
     * Ageing ends that starvation: under the same constant load, one call of {@link QueueAdmin#agePriorities}
     * raises the waiting low task (the running high one is claimed, the next not yet enqueued) to the high
     * priority, where its older id puts it first. It runs while the load goes on: at once, or, its older id being
     * below the workers' floor ({@link ClaimCursor}), with their next claim from the head, within a second.
     */
    @Test
    void ageingLetsALowPriorityTaskOvertakeAConstantHigherPriorityLoad() throws Exception {
        int agedAfter = 40;
        producer.enqueue("low", 0);
        producer.enqueue("high", 1);
        QueueAdmin admin = new QueueAdmin(ds, queue);
        List<String> seen = new CopyOnWriteArrayList<>();
        AtomicInteger highs = new AtomicInteger();
        AtomicInteger raised = new AtomicInteger(-1);
        try (QueueWorkers ignored = dbq.consume(QueueConfig.of(queue).withBatchSize(1),
                BatchHandler.perTask((task, b) -> {
                    if (task.priority() == 1 && !seen.contains("low")) { // the load goes on until the low task ran
                        if (highs.incrementAndGet() == agedAfter) {
                            raised.set(admin.agePriorities(Duration.ZERO));
                        }
                        producer.enqueue("high", 1);
                    }
                    seen.add(task.payload());
                    return TaskResult.finish();
                }))) {
            Await.until(TIMEOUT, "the low task and every high one processed",
                    () -> seen.contains("low") && seen.size() == highs.get() + 2);
        }
        assertEquals(1, raised.get());
        int low = seen.indexOf("low");
        assertTrue(low >= agedAfter, "the low task ran only after its ageing, at " + low);
        assertTrue(low < seen.size() - 1, "the low task ran while a high one was due");
    }

    /**
     * Ageing passes over a task another transaction looks at by key share, as a unique enqueue joined to a caller's
     * transaction does with its key's waiting task. On dbq_seq_priority_key, whose key holds the priority, the update
     * waited for that transaction, with no timeout, while every claim skipped the other tasks it had locked.
     */
    @Test
    void ageingPassesOverATaskAnotherTransactionLooksAt() throws Exception {
        long looked = producer.enqueue("looked at");
        long other = producer.enqueue("other");
        try (Connection c = ds.getConnection(); PreparedStatement look = c.prepareStatement(
                "SELECT id FROM " + queue.table().name() + " WHERE id = ? FOR KEY SHARE")) {
            c.setAutoCommit(false);
            look.setLong(1, looked);
            look.executeQuery().close();
            CompletableFuture<Integer> aged = CompletableFuture.supplyAsync(
                    () -> new QueueAdmin(ds, queue).agePriorities(Duration.ZERO));
            try {
                assertTrue(aged.get(30, TimeUnit.SECONDS) >= 1, "raised at least the task nobody looks at");
            } finally {
                c.rollback();
            }
        }
        assertEquals(1, TestDatabase.queryLong("SELECT priority FROM " + queue.table().name() + " WHERE id = " + other));
    }

    @Test
    void ageingIsRefusedWhereTheLayoutHasNoPriorities() throws Exception {
        QueueAdmin fifo = new QueueAdmin(ds, TestDatabase.freshTable(Layout.DBQ_SEQ).queue("fifo"));
        assertThrows(IllegalArgumentException.class, () -> fifo.agePriorities(Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> new QueueAdmin(ds, queue).agePriorities(Duration.ofSeconds(-1)));
        // past 292 years its nanoseconds overflowed: a bare ArithmeticException
        assertEquals("waited", assertThrows(InvalidValueException.class,
                () -> new QueueAdmin(ds, queue).agePriorities(Duration.ofDays(110_000))).field());
    }
}
