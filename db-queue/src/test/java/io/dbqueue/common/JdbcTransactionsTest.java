package io.dbqueue.common;

import io.dbqueue.TestDatabase;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueProducer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Plain JDBC's transactions tell a producer's listener (and so its wakeups) of an enqueue only once it has committed. */
class JdbcTransactionsTest {

    private QueueLocation queue;
    private final List<Long> visibleWhenHeard = new CopyOnWriteArrayList<>();
    private QueueProducer producer;

    @BeforeEach
    void producer() throws SQLException {
        queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("tx");
        QueueListener listener = new QueueListener() {
            @Override
            public void enqueued(QueueLocation q, int count) {
                try {
                    visibleWhenHeard.add(TestDatabase.queryLong("SELECT count(*) FROM dbq_seq"));
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        producer = new QueueProducer(TestDatabase.dataSource(), queue, listener, Transactions.JDBC);
    }

    @Test
    void anEnqueueInANewTransactionIsHeardOfAfterItsCommit() throws Exception {
        Transactions.JDBC.inNewTransaction(TestDatabase.dataSource(), c -> producer.enqueue(c, "a"));
        assertEquals(List.of(1L), visibleWhenHeard, "tasks other sessions saw when the listener heard");
    }

    @Test
    void anEnqueueRolledBackIsNeverHeardOf() throws Exception {
        assertThrows(IllegalStateException.class, () -> Transactions.JDBC.inNewTransaction(TestDatabase.dataSource(),
                c -> {
                    producer.enqueue(c, "b");
                    throw new IllegalStateException("rolled back");
                }));
        assertEquals(List.of(), visibleWhenHeard);
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM dbq_seq"));
    }

    /** The work's own failure is thrown, not the failure to turn auto-commit back on on the connection it lost. */
    @Test
    void aWorkFailingOnALostConnectionThrowsItsOwnFailure() {
        IllegalStateException thrown = assertThrows(IllegalStateException.class,
                () -> Transactions.JDBC.inNewTransaction(TestDatabase.dataSource(), c -> {
                    try (Statement s = c.createStatement()) {
                        s.execute("SELECT pg_terminate_backend(pg_backend_pid())");
                    } catch (SQLException lost) {
                        throw new IllegalStateException("the work's own failure", lost);
                    }
                    return null;
                }));
        assertEquals("the work's own failure", thrown.getMessage());
    }

    @Test
    void outsideATransactionAnActionRunsAtOnce() {
        List<String> ran = new CopyOnWriteArrayList<>();
        Transactions.JDBC.afterCommit(() -> ran.add("now"));
        assertEquals(List.of("now"), ran);
    }
}
