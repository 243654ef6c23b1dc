package io.dbqueue.queue;

import io.dbqueue.Await;
import io.dbqueue.TestDatabase;
import io.dbqueue.common.CommitOutcomeUnknownException;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.QueueException;
import io.dbqueue.common.Transactions;
import io.dbqueue.internal.Jdbc;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write whose connection is lost once its commit was sent is an unknown outcome, never "not
 * stored". The producer's backend is held by a trigger waiting for an advisory lock the test holds,
 * in the COMMIT (a deferred constraint trigger) or in the statement before it, and terminated there.
 */
class CommitOutcomeTest {

    private static final long LOCK = 727_001;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final DataSource ds = TestDatabase.dataSource();
    private QueueTable table;
    private QueueProducer producer;

    @BeforeEach
    void freshTable() throws SQLException {
        table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        producer = new QueueProducer(ds, table.queue("outcome"));
        TestDatabase.execute("CREATE OR REPLACE FUNCTION dbq_test_wait_for_lock() RETURNS trigger LANGUAGE plpgsql"
                + " AS $$ BEGIN PERFORM pg_advisory_xact_lock(" + LOCK + "); RETURN NULL; END $$");
    }

    @Test
    void aWriteLostInItsCommitIsAnUnknownOutcome() throws Exception {
        holdInserts(true);
        Throwable keyed = terminatedWhileWaiting(() -> producer.enqueueOnce("k", "x"));
        assertInstanceOf(CommitOutcomeUnknownException.class, keyed);
        assertTrue(keyed.getMessage().contains("outcome unknown") && keyed.getMessage().contains("same idempotency key"),
                keyed.getMessage());
        assertInstanceOf(CommitOutcomeUnknownException.class, terminatedWhileWaiting(() -> producer.enqueue("y")));
        // A batch of fingerprinted keys commits with an explicit COMMIT.
        assertInstanceOf(CommitOutcomeUnknownException.class, terminatedWhileWaiting(() -> producer.enqueueAllOnce(
                List.of("a", "b"), List.of("h", "h"), List.of("a", "b"), Duration.ZERO)));

        TestDatabase.execute("DROP TRIGGER wait_for_lock ON " + table.name());
        assertTrue(producer.enqueueOnce("k", "x").stored(), "the terminated commit had not gone through");
        assertEquals(1, TestDatabase.queryLong("SELECT count(*) FROM " + table.name()));
    }

    @Test
    void aTransactionLostBeforeItsCommitWasSentIsNotStored() throws Exception {
        holdInserts(false);
        Throwable batch = terminatedWhileWaiting(() -> producer.enqueueAllOnce(
                List.of("a", "b"), List.of("h", "h"), List.of("a", "b"), Duration.ZERO));
        assertEquals(QueueException.class, batch.getClass(), batch.toString());
        assertTrue(batch.getMessage().contains("failed"), batch.getMessage());
        // In auto-commit the statement carries its commit: lost during it, it may have committed.
        assertInstanceOf(CommitOutcomeUnknownException.class, terminatedWhileWaiting(() -> producer.enqueue("y")));
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + table.keysTable()));
    }

    @Test
    void aDatabaseThatCannotBeReachedStoresNothing() {
        PGSimpleDataSource unreachable = new PGSimpleDataSource();
        unreachable.setURL("jdbc:postgresql://127.0.0.1:1/postgres?connectTimeout=2");
        QueueProducer down = new QueueProducer(unreachable, table.queue("outcome"));
        QueueException e = assertThrows(QueueException.class, () -> down.enqueueOnce("k", "x"));
        assertEquals(QueueException.class, e.getClass(), e.toString());
    }

    /**
     * Exactly once, a batch whose connection is lost in its COMMIT records no failed attempt: it committed whole, or
     * rolled back whole and its task is as it was. Recorded, a re-enqueue whose commit had gone through became a retry
     * with the policy's delay, and a retry counted twice; here, rolled back, the task had an attempt counted.
     */
    @Test
    void anExactlyOnceBatchLostInItsCommitRecordsNoFailure() throws Exception {
        long id = producer.enqueue("effect");
        TestDatabase.execute("DROP TABLE IF EXISTS commit_outcome_effects;"
                + " CREATE TABLE commit_outcome_effects (task_id bigint);"
                + " CREATE CONSTRAINT TRIGGER wait_for_lock AFTER INSERT ON commit_outcome_effects DEFERRABLE INITIALLY"
                + " DEFERRED FOR EACH ROW EXECUTE FUNCTION dbq_test_wait_for_lock()");
        String waiting = " FROM pg_locks WHERE locktype = 'advisory' AND objid = " + LOCK + " AND NOT granted";
        try (BatchProcessor processor = new BatchProcessor(ds, QueueConfig.of(table.queue("outcome"))
                .withMode(DeliveryMode.EXACTLY_ONCE), BatchHandler.perTask((task, batch) -> {
                    Jdbc.update(batch.connection(), "INSERT INTO commit_outcome_effects VALUES (?)", task.id());
                    return TaskResult.reenqueue(Duration.ofHours(1));
                }), QueueListener.NONE, Transactions.JDBC);
             Connection holder = ds.getConnection(); Statement st = holder.createStatement()) {
            st.execute("SELECT pg_advisory_lock(" + LOCK + ")");
            try {
                CompletableFuture<Integer> handled = CompletableFuture.supplyAsync(() -> {
                    try {
                        return processor.runOnce();
                    } catch (Exception e) {
                        throw new CompletionException(e);
                    }
                });
                Await.until(TIMEOUT, "the batch's commit waits", () -> TestDatabase.queryLong("SELECT count(*)" + waiting) == 1);
                st.execute("SELECT pg_terminate_backend(pid)" + waiting);
                assertEquals(1, handled.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            } finally {
                st.execute("SELECT pg_advisory_unlock(" + LOCK + ")");
            }
        }
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM commit_outcome_effects"), "rolled back");
        assertEquals(0, TestDatabase.queryLong("SELECT attempt FROM " + table.name() + " WHERE id = " + id),
                "no failed attempt recorded");
    }

    /** Makes every insert into the table wait for the test's lock: in its COMMIT, or in the statement. */
    private void holdInserts(boolean inCommit) throws SQLException {
        TestDatabase.execute("CREATE CONSTRAINT TRIGGER wait_for_lock AFTER INSERT ON " + table.name()
                + (inCommit ? " DEFERRABLE INITIALLY DEFERRED" : "") + " FOR EACH ROW EXECUTE FUNCTION dbq_test_wait_for_lock()");
    }

    /** What {@code write} throws once its backend, waiting for the test's lock, is terminated. */
    private Throwable terminatedWhileWaiting(Supplier<?> write) throws Exception {
        String waiting = " FROM pg_locks WHERE locktype = 'advisory' AND objid = " + LOCK + " AND NOT granted";
        try (Connection holder = ds.getConnection(); Statement st = holder.createStatement()) {
            st.execute("SELECT pg_advisory_lock(" + LOCK + ")");
            try {
                CompletableFuture<?> result = CompletableFuture.supplyAsync(write);
                Await.until(TIMEOUT, "the write waits for the lock", () -> TestDatabase.queryLong("SELECT count(*)" + waiting) == 1);
                st.execute("SELECT pg_terminate_backend(pid)" + waiting);
                return assertThrows(ExecutionException.class, () -> result.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                        .getCause();
            } finally {
                st.execute("SELECT pg_advisory_unlock(" + LOCK + ")");
            }
        }
    }
}
