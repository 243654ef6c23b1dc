package io.dbqueue.queue;

import io.dbqueue.Await;
import io.dbqueue.TestDatabase;
import io.dbqueue.queue.QueueProducer.Enqueued;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Enqueue with idempotency keys: a repeated key stores nothing and answers with the first id, in one statement. */
class IdempotencyKeyTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final DataSource ds = TestDatabase.dataSource();
    private QueueTable table;
    private QueueProducer producer;

    private void fresh(Layout layout) throws SQLException {
        table = TestDatabase.freshTable(layout);
        producer = new QueueProducer(ds, table.queue("keyed"));
    }

    /** Identity and bigserial ids, id and next_process_at claim orders, a partitioned table. */
    @ParameterizedTest
    @ValueSource(strings = {"dbq_seq", "dbq_seq_pk", "queue_tasks_1", "queue_tasks_5"})
    void aRepeatedKeyAnswersWithTheFirstIdAndStoresNothing(String layout) throws Exception {
        fresh(Layout.named(layout));
        Enqueued first = producer.enqueueOnce("order-1", "a");
        Enqueued again = producer.enqueueOnce("order-1", "a, sent again");
        assertTrue(first.stored());
        assertEquals(new Enqueued(first.id(), false), again);
        assertEquals(1, rows());

        List<Enqueued> batch = producer.enqueueAllOnce(List.of("order-2", "order-1", "order-3", "order-2"),
                List.of("b", "a", "c", "b twice"), Duration.ZERO);
        assertEquals(List.of(true, false, true, false), batch.stream().map(Enqueued::stored).toList());
        assertEquals(first.id(), batch.get(1).id());
        assertEquals(batch.get(0).id(), batch.get(3).id(), "a key twice in one batch is one task");
        assertEquals(3, rows());
        assertEquals("b", TestDatabase.queryString("SELECT payload FROM " + table.name() + " WHERE id = "
                + batch.get(0).id()));
        // The tasks are claimable like any other, in the order they were sent.
        TaskStore store = new TaskStore(table.queue("keyed"));
        try (Connection c = ds.getConnection()) {
            List<Long> claimed = store.claim(c, 10, io.dbqueue.common.DeliveryMode.AT_MOST_ONCE, TIMEOUT).stream()
                    .map(Task::id).toList();
            assertEquals(List.of(first.id(), batch.get(0).id(), batch.get(2).id()), claimed);
        }
        // Processed and gone, the task's key still answers.
        assertEquals(new Enqueued(first.id(), false), producer.enqueueOnce("order-1", "a, third time"));
        assertEquals(0, rows());
    }

    @Test
    void keysAreKeptPerQueueAndDelaysApply() throws Exception {
        fresh(Layout.DBQ_SEQ);
        QueueProducer other = new QueueProducer(ds, table.queue("other"));
        long id = producer.enqueueAllOnce(List.of("k"), List.of("later"), Duration.ofHours(1)).get(0).id();
        assertTrue(other.enqueueOnce("k", "x").stored(), "the same key in another queue is another task");
        double dueIn = TestDatabase.queryDouble("SELECT extract(epoch FROM next_process_at - now()) FROM "
                + table.name() + " WHERE id = " + id);
        assertTrue(dueIn > 3500 && dueIn <= 3600, "due in " + dueIn + " s");
    }

    @Test
    void aConcurrentEnqueueOfTheSameKeyWaitsAndAnswersWithTheCommittedId() throws Exception {
        fresh(Layout.DBQ_SEQ);
        try (Connection first = ds.getConnection()) {
            first.setAutoCommit(false);
            long id = producer.enqueueAllOnce(first, List.of("race"), List.of("first"), Duration.ZERO).get(0).id();
            CompletableFuture<Enqueued> second = CompletableFuture.supplyAsync(() -> producer.enqueueOnce("race", "second"));
            Await.until(TIMEOUT, "the second enqueue waits on the first's key", () -> TestDatabase.queryLong(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'WITH input%'") == 1);
            first.commit();
            assertEquals(new Enqueued(id, false), second.get(30, TimeUnit.SECONDS));
        }
        assertEquals(1, rows());
    }

    @Test
    void aRolledBackEnqueueLeavesNoKey() throws Exception {
        fresh(Layout.DBQ_SEQ);
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            assertTrue(producer.enqueueAllOnce(c, List.of("undo"), List.of("x"), Duration.ZERO).get(0).stored());
            c.rollback();
        }
        assertTrue(producer.enqueueOnce("undo", "x").stored());
        assertEquals(1, rows());
    }

    @Test
    void badKeysAreRefusedByNameAndNothingIsStored() throws Exception {
        fresh(Layout.DBQ_SEQ);
        assertMessage("key[1] must not be null or empty", () -> producer.enqueueAllOnce(
                Arrays.asList("a", null), List.of("x", "y"), Duration.ZERO));
        assertMessage("key[0] must not be null or empty", () -> producer.enqueueOnce("", "x"));
        assertMessage("key[0] contains a NUL character", () -> producer.enqueueOnce("a\0b", "x"));
        assertMessage("key[0] is 513 characters long", () -> producer.enqueueOnce("k".repeat(513), "x"));
        assertMessage("one key per payload: 2 payloads, 1 keys", () -> producer.enqueueAllOnce(
                List.of("a"), List.of("x", "y"), Duration.ZERO));
        assertMessage("payload[1] must not be null", () -> producer.enqueueAllOnce(
                List.of("a", "b"), Arrays.asList("x", null), Duration.ZERO));
        assertMessage("delay must be zero or positive", () -> producer.enqueueAllOnce(
                List.of("a"), List.of("x"), Duration.ofSeconds(-1)));
        assertMessage("uniqueness must not be null", () -> producer.enqueueOnce("a", "x", Duration.ZERO, null));
        assertEquals(0, rows());
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + table.keysTable()));
    }

    /** The primary key (queue_name, id), which the purge's look-up of a key's task must name the queue for, and (id). */
    @ParameterizedTest
    @ValueSource(strings = {"dbq_seq", "dbq_seq_pk"})
    void purgedKeysStoreAgainAndNewerOnesAndThoseOfTasksInTheQueueAreKept(String layout) throws Exception {
        fresh(Layout.named(layout));
        long old = producer.enqueueOnce("old", "x").id();
        producer.enqueueOnce("new", "y");
        producer.enqueueOnce("old, still queued", "z");
        TestDatabase.execute("DELETE FROM " + table.name() + " WHERE id = " + old);
        TestDatabase.execute("UPDATE " + table.keysTable() + " SET created_at = now() - interval '2 days' WHERE key LIKE 'old%'");
        assertEquals(1, IdempotencyKeys.purge(ds, table, Duration.ofDays(1)));
        assertTrue(producer.enqueueOnce("old", "x").stored(), "a purged key is a new key");
        assertTrue(!producer.enqueueOnce("new", "y").stored(), "a key within the retention still answers");
        assertTrue(!producer.enqueueOnce("old, still queued", "z").stored(), "a key of a task in the queue still answers");
    }

    @Test
    void aTableCreatedBeforeKeysGainsItsKeysTable() throws Exception {
        fresh(Layout.DBQ_SEQ);
        TestDatabase.execute("DROP TABLE " + table.keysTable());
        Schema.createIfMissing(ds, table);
        assertTrue(producer.enqueueOnce("upgraded", "x").stored());
    }

    @Test
    void aKeysTableCreatedBeforeFingerprintsGainsTheColumn() throws Exception {
        fresh(Layout.DBQ_SEQ);
        long old = producer.enqueueOnce("before", "x").id();
        TestDatabase.execute("ALTER TABLE " + table.keysTable() + " DROP COLUMN request_hash");
        assertThrows(io.dbqueue.common.QueueException.class, () -> producer.enqueueOnce("after", "hash", "y"));
        Schema.createIfMissing(ds, table);
        assertEquals(old, producer.enqueueOnce("before", "hash", "x").id(), "a key stored without one matches any");
        assertTrue(producer.enqueueOnce("after", "hash", "y").stored());
        assertThrows(IdempotencyKeyReusedException.class, () -> producer.enqueueOnce("after", "other", "y"));
    }

    @Test
    void aReusedKeyInAJoinedTransactionLeavesNothingOfItsBatchThere() throws Exception {
        fresh(Layout.DBQ_SEQ);
        long first = producer.enqueueOnce("k1", "hash-a", "first").id();
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            QueueProducer joining = new QueueProducer(ds, table.queue("keyed"), QueueListener.NONE, joining(c));
            IdempotencyKeyReusedException reused = assertThrows(IdempotencyKeyReusedException.class, () -> joining
                    .enqueueAllOnce(List.of("k2", "k1"), List.of("h", "hash-b"), List.of("new", "x"), Duration.ZERO));
            assertEquals(first, reused.taskId());
            assertTrue(joining.enqueueOnce("k3", "h", "kept").stored(), "the transaction goes on");
            c.commit();
        }
        assertEquals(2, rows());
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + table.keysTable() + " WHERE key = 'k2'"));
    }

    /** Transactions that join every write to the transaction open on {@code connection}. */
    private static io.dbqueue.common.Transactions joining(Connection connection) {
        return new io.dbqueue.common.Transactions() {
            @Override
            public Connection joined(DataSource dataSource) {
                return connection;
            }

            @Override
            public void release(Connection c, DataSource dataSource) {
            }

            @Override
            public void afterCommit(Runnable action) {
                action.run();
            }

            @Override
            public <T> T inNewTransaction(DataSource dataSource, Work<T> work) throws SQLException, InterruptedException {
                return io.dbqueue.common.Transactions.JDBC.inNewTransaction(dataSource, work);
            }
        };
    }

    @Test
    void badFingerprintsAreRefusedByNameAndNothingIsStored() throws Exception {
        fresh(Layout.DBQ_SEQ);
        assertMessage("fingerprint[0] must not be null or empty", () -> producer.enqueueOnce("a", "", "x"));
        assertMessage("fingerprint[1] is 513 characters long", () -> producer.enqueueAllOnce(List.of("a", "b"),
                List.of("h", "h".repeat(513)), List.of("x", "y"), Duration.ZERO));
        assertMessage("one fingerprint (or null) per payload: 2 payloads, 1 fingerprints", () -> producer.enqueueAllOnce(
                List.of("a", "b"), List.of("h"), List.of("x", "y"), Duration.ZERO));
        assertMessage("key[1] 'a' is in the batch twice with different fingerprints", () -> producer.enqueueAllOnce(
                List.of("a", "a"), List.of("h1", "h2"), List.of("x", "y"), Duration.ZERO));
        assertEquals(0, rows());
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + table.keysTable()));
    }

    private long rows() throws SQLException {
        return TestDatabase.queryLong("SELECT count(*) FROM " + table.name());
    }

    private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
