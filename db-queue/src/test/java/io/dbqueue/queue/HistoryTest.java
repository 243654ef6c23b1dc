package io.dbqueue.queue;

import io.dbqueue.Await;
import io.dbqueue.TestDatabase;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.InvalidValueException;
import io.dbqueue.common.Transactions;
import io.dbqueue.internal.Jdbc;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A queue that keeps its history ({@link QueueConfig#history()}) on every layout: finished tasks are found as DONE. */
class HistoryTest extends EveryLayout {

    private static final Duration HOUR = Duration.ofHours(1);

    @Override
    String queueName() {
        return "kept";
    }

    @Test
    void finishedTasksAreFoundAsDoneWithTheAttemptThatFinishedThem() throws Exception {
        HistoryTable.createIfMissing(ds, table, HOUR);
        for (DeliveryMode mode : List.of(DeliveryMode.AT_LEAST_ONCE, DeliveryMode.EXACTLY_ONCE)) {
            // All finished (at least once: the commit without a WAL flush), and finished beside a retry.
            long alone = producer.enqueue("alone " + mode);
            runOnce(mode, TaskResult.finish());
            List<Long> pair = producer.enqueueAll(List.of("finished " + mode, "retried " + mode));
            runOnce(mode, task -> task.payload().startsWith("retried") ? TaskResult.fail("later") : TaskResult.finish());

            for (long id : List.of(alone, pair.get(0))) {
                FoundTask done = admin.find(id).orElseThrow(() -> new AssertionError(mode + ": task " + id));
                assertEquals(FoundTask.State.DONE, done.state(), mode.toString());
                assertEquals(1, done.attempt(), mode + ": the attempt that finished it");
                assertEquals(1, done.totalAttempt(), mode.toString());
                assertNotNull(done.since(), "finished at");
            }
            assertEquals(FoundTask.State.LEASED, admin.find(pair.get(1)).orElseThrow().state());
            assertEquals(0, admin.stats().waiting());
        }
        assertTrue(dbq.queueAdmin(table.queue("other")).find(producer.enqueue("x")).isEmpty(),
                "another queue's task is not this queue's");
    }

    @Test
    void theHistoryKeepsATasksHeadersAndPriorityAndAnOlderHistoryGainsTheirColumns() throws Exception {
        HistoryTable.createIfMissing(ds, table, HOUR);
        TestDatabase.execute("ALTER TABLE " + table.historyTable() + " DROP COLUMN priority, DROP COLUMN headers");
        HistoryTable.createIfMissing(ds, table, HOUR); // as a consumer with a history starting on an older history

        long withHeaders = producer.enqueue("traced", Map.of("traceparent", "00-abc-01"));
        boolean priorities = table.layout().priorities();
        long prioritized = priorities ? producer.enqueue("urgent", 3) : producer.enqueue("plain");
        runOnce(DeliveryMode.AT_LEAST_ONCE, TaskResult.finish());

        String kept = "SELECT coalesce(priority, -1) || ' ' || coalesce(headers ->> 'traceparent', '-') FROM "
                + table.historyTable() + " WHERE id = ";
        assertEquals((priorities ? "0" : "-1") + " 00-abc-01", TestDatabase.queryString(kept + withHeaders));
        assertEquals(priorities ? "3 -" : "-1 -", TestDatabase.queryString(kept + prioritized));
    }

    /**
     * The upkeep that finds the history and its partitions in place takes no lock that waits for a finish in
     * progress. It ran CREATE INDEX IF NOT EXISTS each time, whose lock on the table waited for the finish (here
     * until the upkeep's lock timeout) and held up every finish after it.
     */
    @Test
    void upkeepOfACompleteHistoryDoesNotWaitForAFinishInProgress() throws Exception {
        HistoryTable.createIfMissing(ds, table, HOUR);
        try (Connection finishing = ds.getConnection(); Connection upkeep = ds.getConnection()) {
            finishing.setAutoCommit(false);
            try (Statement st = finishing.createStatement()) { // as a finish into the history holds it
                st.execute("LOCK TABLE " + table.historyTable() + " IN ROW EXCLUSIVE MODE");
            }
            assertEquals(List.of(), HistoryTable.createAhead(upkeep, table, HOUR, Instant.now()));
            finishing.rollback();
        }
    }

    @Test
    void aQueueWithoutHistoryStillDeletesWhatFinishes() throws Exception {
        QueueLocation plain = table.queue("plain");
        long id = dbq.producer(plain).enqueue("gone");
        new BatchProcessor(ds, QueueConfig.of(plain), BatchHandler.perTask((t, b) -> TaskResult.finish()),
                QueueListener.NONE, Transactions.JDBC).runOnce();
        try (Connection c = ds.getConnection()) {
            assertFalse(Jdbc.tableVisible(c, table.historyTable()), "no history table unless a queue keeps one");
        }
        HistoryTable.createIfMissing(ds, table, HOUR);
        long other = dbq.producer(plain).enqueue("gone too");
        new BatchProcessor(ds, QueueConfig.of(plain), BatchHandler.perTask((t, b) -> TaskResult.finish()),
                QueueListener.NONE, Transactions.JDBC).runOnce();

        assertTrue(dbq.queueAdmin(plain).find(id).isEmpty());
        assertTrue(dbq.queueAdmin(plain).find(other).isEmpty(), "a sibling's history is not this queue's");
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + table.historyTable()));
    }

    @Test
    void theDoorCreatesTheHistoryOfAQueueThatKeepsOne() throws Exception {
        long id = producer.enqueue("through the door");
        dbq.consume(QueueConfig.of(queue).withHistory(Duration.ofDays(7)),
                BatchHandler.perTask((task, batch) -> TaskResult.finish()));

        Await.until(Duration.ofSeconds(30), "the task finished into the history",
                () -> admin.find(id).map(t -> t.state() == FoundTask.State.DONE).orElse(false));
    }

    @Test
    void historyIsNotKeptAtMostOnce() {
        QueueConfig atMostOnce = QueueConfig.of(queue).withMode(DeliveryMode.AT_MOST_ONCE);
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> atMostOnce.withHistory(HOUR));
        assertTrue(e.getMessage().contains("history"), e.getMessage());
        assertThrows(InvalidValueException.class, () -> QueueConfig.of(queue).withHistory(Duration.ZERO));
    }

    private void runOnce(DeliveryMode mode, TaskResult result) throws Exception {
        runOnce(mode, task -> result);
    }

    private void runOnce(DeliveryMode mode, java.util.function.Function<Task, TaskResult> result) throws Exception {
        new BatchProcessor(ds, QueueConfig.of(queue).withMode(mode).withHistory(HOUR),
                BatchHandler.perTask((task, batch) -> result.apply(task)), QueueListener.NONE, Transactions.JDBC)
                .runOnce();
    }
}
