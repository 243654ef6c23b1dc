package io.dbqueue.queue;

import io.dbqueue.Await;
import io.dbqueue.DbQueue;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.Transactions;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An operator's {@link QueueAdmin} on every layout: stats, pause across doors, cancel, reschedule. */
class QueueAdminContractTest extends EveryLayout {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** A pause or resume reaches every worker within this. */
    private static final Duration WITHIN_A_SECOND = Duration.ofSeconds(1);

    @Override
    String queueName() {
        return "admin";
    }

    @Test
    void statsCountWaitingLeasedScheduledAndDeadTasks() throws Exception {
        producer.enqueueAll(List.of("leased", "dead", "waiting-1", "waiting-2"));
        producer.enqueue("later", Duration.ofHours(1));
        dbq.producer(table.queue("other")).enqueue("not counted");
        lease(1);
        new BatchProcessor(ds, QueueConfig.of(queue).withBatchSize(1),
                BatchHandler.perTask((task, batch) -> TaskResult.deadLetter("no")), QueueListener.NONE,
                Transactions.JDBC).runOnce();

        QueueMonitor.Stats stats = admin.stats();
        assertEquals(2, stats.waiting());
        assertEquals(1, stats.leased());
        assertEquals(1, stats.scheduled());
        assertEquals(1, stats.deadLetters());
        assertFalse(stats.paused());
        assertFalse(stats.oldestWaitingAge().isNegative());
        assertEquals(new QueueMonitor.Stats(0, Duration.ZERO, 0, 0, 0, false),
                dbq.queueAdmin(table.queue("empty")).stats());
    }

    @Test
    void cancelDeletesOnlyAWaitingTaskByIdOrByKey() throws Exception {
        List<Long> ids = producer.enqueueAll(List.of("leased", "waiting"));
        long keyed = producer.enqueueOnce("order-7", "keyed").id();
        long other = dbq.producer(table.queue("other")).enqueue("other queue");
        lease(1);

        assertFalse(admin.cancel(ids.get(0)), "a leased task is the worker's");
        assertFalse(admin.cancel(other), "a task of another queue");
        assertTrue(admin.cancel(ids.get(1)));
        assertFalse(admin.cancel(ids.get(1)), "cancelled already");
        assertFalse(admin.cancelByKey("order-8"));
        assertTrue(admin.cancelByKey("order-7"));
        assertEquals(keyed, producer.enqueueOnce("order-7", "again").id(), "the key still answers its task");
        assertEquals(List.of(ids.get(0)), new QueueMonitor(ds, queue).peek(10).stream().map(Task::id).toList());
    }

    @Test
    void rescheduleMovesAWaitingTasksDueTime() throws Exception {
        long leased = producer.enqueue("leased");
        lease(1);
        long id = producer.enqueue("moved");

        assertTrue(admin.reschedule(id, Instant.now().plus(Duration.ofHours(2))));
        assertEquals(1, admin.stats().scheduled());
        assertTrue(admin.reschedule(id, Instant.now().minusSeconds(1)), "a scheduled task can be brought forward");
        assertEquals(1, admin.stats().waiting());
        assertFalse(admin.reschedule(leased, Instant.now()), "a leased task is the worker's");
        assertEquals(id, lease(1).get(0).id());
    }

    @Test
    void requeuedDeadLetterKeepsItsId() throws Exception {
        long id = producer.enqueue("poison");
        new BatchProcessor(ds, QueueConfig.of(queue), BatchHandler.perTask((task, batch) -> TaskResult.deadLetter("no")),
                QueueListener.NONE, Transactions.JDBC).runOnce();
        assertEquals(1, admin.deadLetters().requeue(List.of(id)));
        assertEquals(List.of(id), lease(10).stream().map(Task::id).toList());
    }

    @Test
    void findSaysWhereATaskIsByIdOrByKey() throws Exception {
        long leased = producer.enqueue("leased");
        lease(1);
        long dead = producer.enqueue("poison");
        new BatchProcessor(ds, QueueConfig.of(queue), BatchHandler.perTask((task, batch) ->
                TaskResult.deadLetter("no stock")), QueueListener.NONE, Transactions.JDBC).runOnce();
        long waiting = producer.enqueue("waiting");
        long scheduled = producer.enqueueOnce("order-9", "later").id();
        admin.reschedule(scheduled, Instant.now().plus(Duration.ofHours(1)));
        long other = dbq.producer(table.queue("other")).enqueue("other queue");

        assertEquals(FoundTask.State.LEASED, admin.find(leased).orElseThrow().state());
        FoundTask found = admin.find(waiting).orElseThrow();
        assertEquals(new FoundTask(waiting, FoundTask.State.WAITING, "waiting", found.createdAt(), found.since(), 0, 0,
                null), found);
        assertEquals(FoundTask.State.SCHEDULED, admin.find(scheduled).orElseThrow().state());
        FoundTask deadLetter = admin.find(dead).orElseThrow();
        assertEquals(FoundTask.State.DEAD, deadLetter.state());
        assertEquals("no stock", deadLetter.lastError());
        assertTrue(admin.find(other).isEmpty(), "a task of another queue");
        assertEquals(scheduled, admin.taskIdOfKey("order-9").orElseThrow());
        assertTrue(admin.taskIdOfKey("order-10").isEmpty());
        assertTrue(admin.cancel(waiting));
        assertTrue(admin.find(waiting).isEmpty(), "cancelled");
    }

    /**
     * Two doors stand for two processes: a pause through one stops the workers of both within a second, a group's
     * workers go on with the group's other queue, and a resume restarts them all.
     */
    @Test
    void pauseStopsTheQueuesWorkersInEveryDoorAndResumeRestartsThem() throws Exception {
        QueueLocation sibling = table.queue("sibling");
        List<String> handled = new CopyOnWriteArrayList<>();
        BatchHandler record = BatchHandler.perTask((task, batch) -> {
            handled.add(task.payload());
            return TaskResult.finish();
        });
        try (DbQueue second = DbQueue.builder(ds).build()) {
            QueueWorkers single = dbq.consume(QueueConfig.of(queue).withWakeup(Wakeup.NOTIFY), record);
            QueueConfig groupConfig = QueueConfig.of(queue).withWakeup(Wakeup.NOTIFY);
            QueueWorkers group = second.consumeGroup(groupConfig,
                    new QueueGroup(table, List.of(queue.queueName(), sibling.queueName()), 1), record);

            assertTrue(admin.pause());
            assertFalse(admin.pause(), "paused already");
            Await.until(WITHIN_A_SECOND, "both doors' workers hold the paused queue",
                    () -> single.heldQueues().equals(Set.of(queue)) && group.heldQueues().equals(Set.of(queue)));
            assertTrue(admin.stats().paused());

            producer.enqueue("while paused");
            second.producer(sibling).enqueue("sibling");
            Await.until(TIMEOUT, "the group's workers take the sibling queue's task", () -> handled.contains("sibling"));
            assertEquals(List.of("sibling"), handled, "no worker claimed from the paused queue");
            assertEquals(1, admin.stats().waiting());

            assertTrue(admin.resume());
            Await.until(WITHIN_A_SECOND, "both doors' workers let the queue go",
                    () -> single.heldQueues().isEmpty() && group.heldQueues().isEmpty());
            Await.until(TIMEOUT, "the task waiting during the pause handled", () -> handled.contains("while paused"));
            assertFalse(admin.resume(), "running already");
        }
    }

    private List<Task> lease(int limit) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return new TaskStore(queue).claim(c, limit, DeliveryMode.AT_LEAST_ONCE, Duration.ofMinutes(5));
        }
    }
}
