package io.dbqueue.queue;

import io.dbqueue.Await;
import io.dbqueue.Gate;
import io.dbqueue.TestDatabase;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.QueueException;
import io.dbqueue.postgres.PostgresServer;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.ParameterizedTest;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Worker threads: shutdown, pause, failures in handlers and in the database. */
class QueueWorkersTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final PollSettings FAST_POLL = PollSettings.DEFAULT.withTimeouts(Duration.ZERO, Duration.ofMillis(5),
            Duration.ofMillis(50));

    private final DataSource ds = TestDatabase.dataSource();
    private QueueTable table;
    private QueueLocation queue;
    private QueueProducer producer;

    @BeforeEach
    void freshTable() throws SQLException {
        table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        queue = table.queue("workers");
        producer = new QueueProducer(ds, queue);
    }

    @Test
    void gracefulShutdownLetsTheBatchInProgressFinish() throws Exception {
        CountDownLatch inHandler = new CountDownLatch(1);
        Gate release = new Gate();
        producer.enqueue("slow");
        QueueWorkers workers = QueueWorkers.start(ds, QueueConfig.of(queue).withPoll(FAST_POLL), batch -> {
            inHandler.countDown();
            release.pass();
        });
        assertTrue(inHandler.await(30, TimeUnit.SECONDS));
        CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(() -> workers.shutdown(TIMEOUT));
        release.open();
        assertTrue(stopped.get(60, TimeUnit.SECONDS), "stopped within the timeout");
        release.assertNoWaitTimedOut();
        assertFalse(workers.isRunning());
        assertEquals(0, rows(), "the batch in progress was acknowledged");
    }

    @Test
    void forcedShutdownKeepsGivenAnswersAndReleasesTheRest() throws Exception {
        producer.enqueueAll(List.of("answered", "pending-1", "pending-2"));
        CountDownLatch inHandler = new CountDownLatch(1);
        QueueWorkers workers = QueueWorkers.start(ds, QueueConfig.of(queue).withPoll(FAST_POLL), batch -> {
            batch.finish(batch.tasks().get(0));
            inHandler.countDown();
            new CountDownLatch(1).await(); // a handler that only an interrupt ends
        });
        assertTrue(inHandler.await(30, TimeUnit.SECONDS));
        assertFalse(workers.shutdown(Duration.ofMillis(100)), "the handler could not finish in time");
        assertEquals(2, rows());
        assertEquals(0, TestDatabase.queryLong("SELECT max(attempt) FROM " + table.name()), "attempt not counted");
        assertEquals(2, TestDatabase.queryLong("SELECT count(*) FROM " + table.name() + " WHERE next_process_at <= now()"),
                "released tasks are due at once");
    }

    /**
     * A handler that answers the shutdown's interrupt by returning, or by throwing something else (as HTTP and JDBC
     * clients wrap it), has its unanswered tasks handed back too: they used to be finished (deleted, never run) or
     * failed (dead-lettered on their last attempt).
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aHandlerCutShortByTheShutdownHandsBackWhatItLeftUnanswered(boolean throwsWrapped) throws Exception {
        producer.enqueueAll(List.of("answered", "pending-1", "pending-2"));
        CountDownLatch inHandler = new CountDownLatch(1);
        QueueConfig lastAttempt = QueueConfig.of(queue).withPoll(FAST_POLL)
                .withRetry(RetryPolicy.of(RetryPolicy.RetryType.LINEAR, Duration.ofMillis(50), 1));
        QueueWorkers workers = QueueWorkers.start(ds, lastAttempt, batch -> {
            batch.finish(batch.tasks().get(0));
            inHandler.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                if (throwsWrapped) {
                    throw new IllegalStateException("request aborted", e);
                }
                // swallowed: the handler returns as if done
            }
        });
        assertTrue(inHandler.await(30, TimeUnit.SECONDS));
        assertFalse(workers.shutdown(Duration.ofMillis(100)), "the handler could not finish in time");
        assertEquals(2, rows(), "the unanswered tasks stay in the queue");
        assertEquals(0, new DeadLetters(ds, queue).count());
        assertEquals(0, TestDatabase.queryLong("SELECT max(attempt) FROM " + table.name()), "attempt not counted");
    }

    @Test
    void pausedWorkersClaimNothingUntilResumed() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        try (QueueWorkers workers = QueueWorkers.start(ds, QueueConfig.of(queue).withThreads(2).withPoll(FAST_POLL),
                batch -> handled.addAndGet(batch.tasks().size()))) {
            workers.pause();
            Await.until(TIMEOUT, "workers idle", () -> workers.busyWorkers() == 0);
            producer.enqueue("waits");
            workers.wakeup();
            // Unpaused, these workers would claim the task within one 5 ms poll; give them 60 polls.
            long until = System.nanoTime() + Duration.ofMillis(300).toNanos();
            while (System.nanoTime() < until) {
                assertEquals(0, TestDatabase.queryLong("SELECT attempt FROM " + table.name()), "claimed while paused");
            }
            assertTrue(workers.isPaused());
            workers.resume();
            Await.until(TIMEOUT, "task handled after resume", () -> handled.get() == 1);
        }
    }

    /** A wakeup that arrives while the worker is claiming (here: right after its empty claim) is not lost. */
    @Test
    void aWakeupDuringAnEmptyClaimCutsTheFollowingWaitShort() throws Exception {
        PollSettings rarePoll = PollSettings.DEFAULT.withTimeouts(Duration.ZERO, Duration.ofMinutes(10), Duration.ofSeconds(1));
        CountDownLatch handled = new CountDownLatch(1);
        AtomicReference<QueueWorkers> started = new AtomicReference<>();
        Gate ready = new Gate();
        QueueListener enqueueOnFirstEmptyClaim = new QueueListener() {
            private boolean done;

            @Override
            public void picked(QueueLocation q, List<Task> tasks, long claimNanos) {
                if (tasks.isEmpty() && !done) {
                    done = true;
                    try {
                        ready.pass();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    producer.enqueue("arrives while the worker claims");
                    started.get().wakeup();
                }
            }
        };
        try (QueueWorkers workers = QueueWorkers.start(ds, QueueConfig.of(queue).withPoll(rarePoll),
                batch -> handled.countDown(), enqueueOnFirstEmptyClaim)) {
            started.set(workers);
            ready.open();
            assertTrue(handled.await(30, TimeUnit.SECONDS), "the worker did not sleep through the wakeup for 10 minutes");
        }
        ready.assertNoWaitTimedOut();
    }

    /**
     * A per-task handler whose client turns a forced shutdown's interrupt into its own exception and sets the flag
     * again (the JDK's HTTP client does) hands the batch's unanswered tasks back, their attempt not counted. Each
     * failed at once instead, used up an attempt, and with one allowed all went to the dead letters.
     */
    @Test
    void aForcedShutdownHandsAPerTaskHandlersRestBackUncounted() throws Exception {
        producer.enqueueAll(List.of("a", "b", "c", "d", "e"));
        CountDownLatch inHandler = new CountDownLatch(1);
        QueueConfig config = QueueConfig.of(queue).withPoll(FAST_POLL).withBatchSize(5)
                .withRetry(RetryPolicy.of(RetryPolicy.RetryType.LINEAR, Duration.ofHours(1), 1));
        QueueWorkers workers = QueueWorkers.start(ds, config, BatchHandler.perTask((task, batch) -> {
            inHandler.countDown();
            try {
                new CountDownLatch(1).await(); // a call that only an interrupt ends
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("request interrupted", e);
            }
            return TaskResult.finish();
        }));
        assertTrue(inHandler.await(30, TimeUnit.SECONDS));
        workers.shutdown(Duration.ofMillis(100));
        assertEquals(0, new DeadLetters(ds, queue).count(), "dead letters");
        assertEquals(5, rows());
        assertEquals(0, TestDatabase.queryLong("SELECT max(attempt) FROM " + table.name()), "attempt not counted");
    }

    @Test
    void aHandlerErrorFailsTheBatchAndTheWorkerGoesOn() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        List<String> errors = new CopyOnWriteArrayList<>();
        QueueConfig config = QueueConfig.of(queue).withPoll(FAST_POLL)
                .withRetry(RetryPolicy.of(RetryPolicy.RetryType.LINEAR, Duration.ofMillis(50), 5));
        try (QueueWorkers ignored = QueueWorkers.start(ds, config, batch -> {
            if (calls.incrementAndGet() == 1) {
                throw new AssertionError("bug in handler");
            }
        }, new QueueListener() {
            @Override
            public void failed(QueueLocation q, Task task, String error, boolean deadLettered) {
                errors.add(error);
            }
        })) {
            producer.enqueue("survives");
            Await.until(TIMEOUT, "task retried and finished", () -> rows() == 0);
        }
        assertEquals(List.of("AssertionError: bug in handler"), errors);
        assertEquals(2, calls.get());
    }

    @Test
    void aListenerErrorNeitherStopsTheWorkerNorLosesAnAtMostOnceClaim() throws Exception {
        List<String> handled = new CopyOnWriteArrayList<>();
        QueueListener missingMetrics = new QueueListener() {
            @Override
            public void picked(QueueLocation q, List<Task> tasks, long claimNanos) {
                throw new NoClassDefFoundError("io/metrics/Timer"); // a library missing at run time
            }
        };
        producer.enqueueAll(List.of("x", "y"));
        try (QueueWorkers ignored = QueueWorkers.start(ds, QueueConfig.of(queue).withPoll(FAST_POLL)
                .withMode(DeliveryMode.AT_MOST_ONCE), batch -> batch.tasks().forEach(t -> handled.add(t.payload())),
                missingMetrics)) {
            Await.until(TIMEOUT, "both claimed tasks handled", () -> handled.size() == 2);
            producer.enqueue("z");
            Await.until(TIMEOUT, "the worker still claims", () -> handled.size() == 3);
        }
        assertEquals(List.of("x", "y", "z"), handled);
    }

    @Test
    void workersRideOutADatabaseOutageAndLoseNoClaimedTask() throws Exception {
        PostgresServer server = TestDatabase.server();
        String url = server.createDatabase("dbq_outage");
        HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(url);
        hikari.setUsername(server.user());
        hikari.setPassword(server.password());
        hikari.setMaximumPoolSize(4);
        hikari.setConnectionTimeout(500);
        hikari.setInitializationFailTimeout(-1);
        try (HikariDataSource outageDs = new HikariDataSource(hikari)) {
            QueueTable outageTable = QueueTable.of(Layout.DBQ_SEQ);
            Schema.recreate(outageDs, outageTable);
            QueueLocation q = outageTable.queue("outage");
            QueueProducer outageProducer = new QueueProducer(outageDs, q);
            List<String> processed = new CopyOnWriteArrayList<>();
            AtomicInteger crashes = new AtomicInteger();
            CountDownLatch inHandler = new CountDownLatch(1);
            Gate databaseGone = new Gate();
            QueueConfig config = QueueConfig.of(q).withThreads(2).withPoll(FAST_POLL).withLeaseTimeout(Duration.ofSeconds(1));
            try (QueueWorkers workers = QueueWorkers.start(outageDs, config, BatchHandler.perTask((task, batch) -> {
                processed.add(task.payload());
                if (inHandler.getCount() > 0) {
                    inHandler.countDown();
                    databaseGone.pass();
                }
                return TaskResult.finish();
            }), new QueueListener() {
                @Override
                public void crashed(QueueLocation queue, Throwable error) {
                    crashes.incrementAndGet();
                }
            })) {
                outageProducer.enqueue("claimed before the outage");
                assertTrue(inHandler.await(30, TimeUnit.SECONDS));
                TestDatabase.execute("ALTER DATABASE dbq_outage ALLOW_CONNECTIONS false");
                TestDatabase.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'dbq_outage'");
                databaseGone.open();
                Await.until(TIMEOUT, "workers notice the outage", () -> crashes.get() >= 2);

                TestDatabase.execute("ALTER DATABASE dbq_outage ALLOW_CONNECTIONS true");
                // The pool may still hand out a connection the outage killed: an enqueue can fail (unacknowledged) once.
                Await.until(TIMEOUT, "enqueue accepted after the outage", () -> {
                    try {
                        outageProducer.enqueue("enqueued after the outage");
                        return true;
                    } catch (QueueException e) {
                        return false;
                    }
                });
                // At least once: the task claimed before the outage runs again (more than once if its 1 s lease
                // ran out before the outage too).
                Await.until(TIMEOUT, "both tasks processed after the outage",
                        () -> processed.contains("enqueued after the outage")
                                && processed.stream().filter("claimed before the outage"::equals).count() >= 2);
                assertTrue(workers.isRunning());
            } finally {
                TestDatabase.execute("ALTER DATABASE dbq_outage ALLOW_CONNECTIONS true");
            }
            databaseGone.assertNoWaitTimedOut();
            Await.until(TIMEOUT, "queue drained", () -> new QueueMonitor(outageDs, q).depth().tasks() == 0);
        }
    }

    private long rows() throws SQLException {
        return TestDatabase.queryLong("SELECT count(*) FROM " + table.name());
    }
}
