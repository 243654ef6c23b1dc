package io.dbqueue.queue;

import io.dbqueue.TestDatabase;
import io.dbqueue.common.CommitOutcomeUnknownException;
import io.dbqueue.common.QueueException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoalescingProducerTest {

    private static final long TIMEOUT_SECONDS = 20;

    private final DataSource ds = TestDatabase.dataSource();
    private QueueTable table;
    private QueueLocation queue;

    @BeforeEach
    void freshTable() throws SQLException {
        table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        queue = table.queue("coalesced");
    }

    private long rows() throws SQLException {
        return TestDatabase.queryLong("SELECT count(*) FROM " + table.name());
    }

    @Test
    void concurrentSingleEnqueuesShareBatchesAndEachCallerGetsItsCommittedId() throws Exception {
        AtomicInteger batches = new AtomicInteger();
        AtomicInteger tasks = new AtomicInteger();
        QueueListener counting = new QueueListener() {
            @Override
            public void enqueued(QueueLocation q, int count) {
                batches.incrementAndGet();
                tasks.addAndGet(count);
            }
        };
        int callers = 32;
        Set<Long> committedWhenAnswered = ConcurrentHashMap.newKeySet();
        try (CoalescingProducer producer = new CoalescingProducer(ds, queue, counting,
                new CoalescingProducer.Settings(Duration.ofMillis(50), 100))) {
            ExecutorService threads = Executors.newFixedThreadPool(callers);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Long>> ids = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                String payload = "task-" + i;
                ids.add(threads.submit(() -> {
                    start.await();
                    long id = producer.enqueue(payload);
                    // answered only after its batch committed: another connection sees the row
                    if (TestDatabase.queryLong("SELECT count(*) FROM " + table.name() + " WHERE id = " + id) == 1) {
                        committedWhenAnswered.add(id);
                    }
                    return id;
                }));
            }
            start.countDown();
            Set<Long> distinct = new HashSet<>();
            for (Future<Long> id : ids) {
                distinct.add(id.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            }
            threads.shutdown();
            assertEquals(callers, distinct.size(), "one id each");
            assertEquals(distinct, committedWhenAnswered, "every caller's task was committed when it was answered");
        }
        assertEquals(callers, rows());
        assertEquals(callers, tasks.get());
        assertTrue(batches.get() < callers, "single enqueues were merged: " + batches.get() + " batches for " + callers);
    }

    @Test
    void aFullBatchIsWrittenAtOnceWithoutWaitingForTheLinger() throws Exception {
        try (CoalescingProducer producer = new CoalescingProducer(ds, queue, Duration.ofHours(1), 5)) {
            List<CompletableFuture<Long>> ids = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                ids.add(producer.enqueueAsync("task-" + i));
            }
            for (CompletableFuture<Long> id : ids) {
                id.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            assertEquals(5, rows());
        }
    }

    /** Interrupted while its batch waits, a caller cannot say "not stored": the batch is written all the same. */
    @Test
    void aCallerInterruptedWhileItsBatchWaitsIsToldTheOutcomeIsUnknown() throws Exception {
        CoalescingProducer producer = new CoalescingProducer(ds, queue, Duration.ofHours(1), 100);
        Thread.currentThread().interrupt();
        assertThrows(CommitOutcomeUnknownException.class, () -> producer.enqueue("waiting"));
        assertTrue(Thread.interrupted(), "the interrupt is kept");
        producer.close();
        assertEquals(1, rows(), "and it was stored");
    }

    @Test
    void closingWritesWhatIsBufferedAndRefusesMore() throws Exception {
        CoalescingProducer producer = new CoalescingProducer(ds, queue, Duration.ofHours(1), 100);
        CompletableFuture<Long> first = producer.enqueueAsync("a");
        CompletableFuture<Long> second = producer.enqueueAsync("b");
        producer.close();
        assertTrue(first.isDone() && second.isDone(), "answered on close");
        assertEquals(2, rows());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> producer.enqueue("c"));
        assertEquals("the coalescing producer of " + queue + " is closed", e.getMessage());
    }

    @Test
    void aFailedBatchFailsEveryCallerOfItAndStoresNothing() throws Exception {
        QueueLocation missing = new QueueTable("no_such_queue_table", Layout.DBQ_SEQ).queue("x");
        try (CoalescingProducer producer = new CoalescingProducer(ds, missing, Duration.ofHours(1), 2)) {
            CompletableFuture<Long> first = producer.enqueueAsync("a");
            CompletableFuture<Long> second = producer.enqueueAsync("b");
            for (CompletableFuture<Long> id : List.of(first, second)) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> id.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
                assertInstanceOf(QueueException.class, e.getCause());
                assertTrue(e.getCause().getMessage().startsWith("enqueue into no_such_queue_table/x failed"),
                        e.getCause().getMessage());
            }
        }
    }

    @Test
    void badInputIsRefusedForItsCallerAlone() throws Exception {
        try (CoalescingProducer producer = new CoalescingProducer(ds, queue, Duration.ofMillis(10), 10)) {
            assertEquals("payload must not be null",
                    assertThrows(IllegalArgumentException.class, () -> producer.enqueue(null)).getMessage());
            producer.enqueue("fine");
        }
        assertEquals(1, rows());
        assertEquals("linger must be zero or positive, was PT-1S", assertThrows(IllegalArgumentException.class,
                () -> new CoalescingProducer(ds, queue, Duration.ofSeconds(-1), 10)).getMessage());
        assertEquals("maxBatch must be between 1 and 100000, was 0", assertThrows(IllegalArgumentException.class,
                () -> new CoalescingProducer(ds, queue, Duration.ZERO, 0)).getMessage());
    }
}
