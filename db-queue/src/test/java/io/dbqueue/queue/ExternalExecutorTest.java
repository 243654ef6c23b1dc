package io.dbqueue.queue;

import io.dbqueue.Await;
import io.dbqueue.Gate;
import io.dbqueue.TestDatabase;
import io.dbqueue.common.DeliveryMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The experiment's "external executor" mode: worker threads only claim; an executor handles and acknowledges. */
class ExternalExecutorTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final PollSettings FAST_POLL = PollSettings.DEFAULT.withTimeouts(Duration.ZERO, Duration.ofMillis(5),
            Duration.ofMillis(50));

    private final DataSource ds = TestDatabase.dataSource();
    private final List<Thread> pickers = new CopyOnWriteArrayList<>();
    private final ThreadFactory pickerThreads = r -> {
        Thread thread = new Thread(r, "picker-" + pickers.size());
        pickers.add(thread);
        return thread;
    };
    private QueueTable table;
    private QueueConfig config;

    @BeforeEach
    void freshTable() throws SQLException {
        table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        config = QueueConfig.of(table.queue("external")).withPoll(FAST_POLL).withBatchSize(10).withThreads(2);
    }

    @ParameterizedTest
    @EnumSource(value = DeliveryMode.class, names = {"AT_LEAST_ONCE", "AT_MOST_ONCE"})
    void workersClaimOnlyWhileTheExecutorHasRoomAndTheExecutorHandlesEveryBatch(DeliveryMode mode) throws Exception {
        enqueue(100);
        LinkedBlockingQueue<Runnable> held = new LinkedBlockingQueue<>();
        AtomicInteger claimed = new AtomicInteger();
        Set<String> handlerThreads = ConcurrentHashMap.newKeySet();
        AtomicInteger handled = new AtomicInteger();
        try (QueueWorkers workers = QueueWorkers.startWithExecutor(ds, config.withMode(mode), batch -> {
            handlerThreads.add(Thread.currentThread().getName());
            handled.addAndGet(batch.tasks().size());
        }, counting(claimed), pickerThreads, held::add, 3)) {
            Await.until(TIMEOUT, "both workers wait for room on the executor",
                    () -> pickers.size() == 2 && pickers.stream().allMatch(t -> t.getState() == Thread.State.WAITING));
            assertEquals(3, held.size(), "three batches handed over");
            assertEquals(30, claimed.get(), "nothing claimed beyond the three batches in flight");

            ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "executor"));
            try {
                // Each finished batch makes room for one more claim.
                while (handled.get() < 100) {
                    Runnable next = held.poll(30, TimeUnit.SECONDS);
                    assertTrue(next != null, "a batch was handed over after room was made; handled " + handled);
                    executor.submit(next).get(30, TimeUnit.SECONDS);
                }
            } finally {
                executor.shutdown();
            }
            assertEquals(Set.of("executor"), handlerThreads);
            Await.until(TIMEOUT, "every task acknowledged", () -> rows() == 0);
            assertEquals(100, claimed.get(), "each task claimed once");
        }
    }

    @Test
    void aBatchTheExecutorRejectsIsHandledOnTheWorkerThread() throws Exception {
        enqueue(25);
        Set<String> handlerThreads = ConcurrentHashMap.newKeySet();
        AtomicInteger handled = new AtomicInteger();
        try (QueueWorkers workers = QueueWorkers.startWithExecutor(ds, config, batch -> {
            handlerThreads.add(Thread.currentThread().getName());
            handled.addAndGet(batch.tasks().size());
        }, QueueListener.NONE, pickerThreads, job -> {
            throw new RejectedExecutionException("full");
        }, 2)) {
            Await.until(TIMEOUT, "every task acknowledged", () -> rows() == 0);
            assertEquals(25, handled.get());
            assertTrue(handlerThreads.stream().allMatch(name -> name.startsWith("picker-")), handlerThreads.toString());
        }
    }

    /**
     * With room for one batch, the worker thread waits for that room at the shutdown's deadline and is interrupted:
     * the batch on the executor, not interrupted, is still acknowledged as its handler answered. The interrupt of the
     * worker threads marked every batch of the queue as cut short, and the batch's tasks were handed back unfinished.
     */
    @ParameterizedTest(name = "{0} batches in flight at most")
    @ValueSource(ints = {1, 2})
    void shutdownWaitsForBatchesOnTheExecutorAndTheirTasksAreNotLost(int maxBatchesInFlight) throws Exception {
        enqueue(1);
        CountDownLatch inHandler = new CountDownLatch(1);
        Gate release = new Gate();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            QueueWorkers workers = QueueWorkers.startWithExecutor(ds, config, batch -> {
                inHandler.countDown();
                release.pass();
            }, QueueListener.NONE, pickerThreads, executor, maxBatchesInFlight);
            assertTrue(inHandler.await(30, TimeUnit.SECONDS));
            assertFalse(workers.shutdown(Duration.ofMillis(100)), "the batch on the executor is not done");
            assertEquals(1, workers.busyWorkers());
            release.open();
            Await.until(TIMEOUT, "the batch acknowledged after all", () -> rows() == 0);
            release.assertNoWaitTimedOut();
            Await.until(TIMEOUT, "nothing in flight", () -> workers.busyWorkers() == 0);
        } finally {
            executor.shutdown();
        }
    }

    /**
     * A batch the executor rejects runs on the worker thread, which a forced shutdown interrupts: a handler that
     * swallows the interrupt and returns hands its unanswered tasks back, as on any worker thread. Marked as on the
     * executor, it had them finished and deleted.
     */
    @Test
    void aRejectedBatchCutShortByAForcedShutdownIsHandedBack() throws Exception {
        enqueue(1);
        CountDownLatch inHandler = new CountDownLatch(1);
        QueueWorkers workers = QueueWorkers.startWithExecutor(ds, config.withThreads(1), batch -> {
            inHandler.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException swallowed) { // returns as if done
            }
        }, QueueListener.NONE, pickerThreads, job -> {
            throw new RejectedExecutionException("full");
        }, 1);
        assertTrue(inHandler.await(30, TimeUnit.SECONDS));
        assertFalse(workers.shutdown(Duration.ofMillis(100)), "the batch was cut short");
        assertEquals(1, rows(), "handed back, not finished");
        assertEquals(0, TestDatabase.queryLong("SELECT attempt FROM " + table.name()), "the attempt not counted");
    }

    /**
     * A batch waiting in the executor's queue keeps its lease: its heartbeats run from its claim, not from when the
     * executor takes it. With the executor's one thread busy for longer than the lease, the waiting batch's lease ran
     * out, and another consumer could claim its tasks while this one would still handle them.
     */
    @ParameterizedTest
    @EnumSource(value = DeliveryMode.class, names = {"AT_LEAST_ONCE", "AT_MOST_ONCE"})
    void aBatchWaitingInTheExecutorsQueueKeepsItsLease(DeliveryMode mode) throws Exception {
        Duration lease = Duration.ofSeconds(3); // renewed every second: a stall of a second on a busy machine is no failure
        ExecutorService oneThread = Executors.newSingleThreadExecutor();
        CountDownLatch firstRuns = new CountDownLatch(1);
        Gate release = new Gate();
        QueueConfig oneAtATime = config.withThreads(1).withBatchSize(1).withLeaseTimeout(lease).withMode(mode)
                .withLimits(QueueLimits.inFlight(2)); // at most once, a place is what its heartbeat keeps
        try (QueueWorkers workers = QueueWorkers.startWithExecutor(ds, oneAtATime, batch -> {
            firstRuns.countDown();
            release.pass();
        }, QueueListener.NONE, pickerThreads, oneThread, 2)) {
            enqueue(1);
            assertTrue(firstRuns.await(30, TimeUnit.SECONDS));
            enqueue(1);
            String waiting = "SELECT count(*) FROM " + table.inFlightTable() + " WHERE expires_at > now()";
            Await.until(TIMEOUT, "the second batch claimed, waiting for the executor", () -> TestDatabase.queryLong(waiting) == 2);
            Thread.sleep(lease.plusSeconds(1).toMillis()); // the wait that outlasts the lease is the fault itself
            assertEquals(2, TestDatabase.queryLong(waiting), "both batches' places (and leases) are still held");
            release.open();
            Await.until(TIMEOUT, "both handled", () -> TestDatabase.queryLong("SELECT count(*) FROM "
                    + table.inFlightTable()) == 0 && rows() == 0);
        } finally {
            oneThread.shutdownNow();
        }
        release.assertNoWaitTimedOut();
    }

    /**
     * A batch an executor drops without running it (a discarding policy, its shutdownNow) keeps its leases for a
     * bounded time only: held from the claim until the job ran, its tasks were never due again while the workers ran.
     */
    @Test
    void aBatchTheExecutorDropsComesBackAfterTenLeases() throws Exception {
        Duration lease = Duration.ofMillis(100);
        enqueue(1);
        QueueWorkers workers = QueueWorkers.startWithExecutor(ds, config.withThreads(1).withLeaseTimeout(lease),
                batch -> { }, QueueListener.NONE, pickerThreads, dropped -> { }, 1);
        try {
            Await.until(TIMEOUT, "claimed", () -> TestDatabase.queryLong("SELECT attempt FROM " + table.name()) == 1);
            Await.until(TIMEOUT, "due again", () -> TestDatabase.queryLong("SELECT count(*) FROM " + table.name()
                    + " WHERE next_process_at <= now()") == 1);
        } finally {
            workers.shutdown(Duration.ofMillis(100)); // the dropped batch never ends: not waited for
        }
    }

    @Test
    void exactlyOnceCannotUseAnExecutor() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QueueWorkers.startWithExecutor(ds,
                config.withMode(DeliveryMode.EXACTLY_ONCE), batch -> { }, QueueListener.NONE, pickerThreads, Runnable::run, 1));
        assertTrue(e.getMessage().contains("EXACTLY_ONCE"), e.getMessage());
        assertTrue(pickers.isEmpty(), "no thread started");
    }

    private static QueueListener counting(AtomicInteger claimed) {
        return new QueueListener() {
            @Override
            public void picked(QueueLocation q, List<Task> tasks, long claimNanos) {
                claimed.addAndGet(tasks.size());
            }
        };
    }

    private void enqueue(int n) {
        List<String> payloads = new ArrayList<>();
        IntStream.range(0, n).forEach(i -> payloads.add("task " + i));
        new QueueProducer(ds, config.location()).enqueueAll(payloads);
    }

    private long rows() throws SQLException {
        return TestDatabase.queryLong("SELECT count(*) FROM " + table.name());
    }
}
