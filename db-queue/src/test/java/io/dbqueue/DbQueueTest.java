package io.dbqueue;

import io.dbqueue.log.GroupConfig;
import io.dbqueue.log.LogListener;
import io.dbqueue.log.LogSchema;
import io.dbqueue.log.Topic;
import io.dbqueue.log.TopicProducer;
import io.dbqueue.maintenance.RetentionPolicy;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.PollSettings;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import io.dbqueue.queue.Wakeup;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the door adds to the parts it hands out: one listening connection that grows, and an orderly close. */
class DbQueueTest {

    /** An idle worker with this poll would not look at the table again within the test. */
    private static final PollSettings RARE_POLL = PollSettings.DEFAULT.withTimeouts(Duration.ZERO,
            Duration.ofMinutes(10), Duration.ofSeconds(1));

    /**
     * A producer is made while consumers start against a database that does not answer: their start holds the door's
     * lock through its queries, and producer() took that lock too, so request threads waited for every such start.
     */
    @Test
    void aProducerIsMadeWhileAConsumerStartWaitsForTheDatabase() throws Exception {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("slow_start");
        CountDownLatch databaseAnswers = new CountDownLatch(1);
        CountDownLatch startWaits = new CountDownLatch(1);
        AtomicReference<Thread> starting = new AtomicReference<>();
        DataSource slowForTheStart = waitingFor(starting, () -> {
            startWaits.countDown();
            databaseAnswers.await();
        });
        try (DbQueue dbq = DbQueue.builder(slowForTheStart).build()) {
            CompletableFuture<QueueWorkers> started = CompletableFuture.supplyAsync(() -> {
                starting.set(Thread.currentThread());
                return dbq.consume(QueueConfig.of(queue).withThreads(1), batch -> { });
            });
            assertTrue(startWaits.await(30, TimeUnit.SECONDS), "the start waiting for the database");
            CompletableFuture<QueueProducer> producer = CompletableFuture.supplyAsync(() -> dbq.producer(queue));
            try {
                assertTrue(producer.get(30, TimeUnit.SECONDS) != null);
            } finally {
                databaseAnswers.countDown();
            }
            started.get(30, TimeUnit.SECONDS);
        }
    }

    /** Something a connection request waits for. */
    private interface Wait {
        void await() throws InterruptedException;
    }

    /** The test database, where every connection the thread in {@code waiting} asks for first runs {@code wait}. */
    private DataSource waitingFor(AtomicReference<Thread> waiting, Wait wait) {
        return CheckedDataSource.of(TestDatabase.dataSource(), () -> {
            if (Thread.currentThread() == waiting.get()) {
                wait.await();
            }
        });
    }

    /** A door whose build fails (here: retention of a topic that does not exist) leaves no maintenance thread behind. */
    @Test
    void aFailedBuildLeavesNoMaintenanceThread() throws Exception {
        long before = maintenanceThreads();
        DbQueue.Builder builder = DbQueue.builder(TestDatabase.dataSource())
                .retention("no_such_topic", RetentionPolicy.consumed(), Duration.ofMinutes(1));
        assertThrows(RuntimeException.class, builder::build);
        // at most as many as before: an earlier test's door may still be ending its own
        Await.until(Duration.ofSeconds(30), "the maintenance thread gone", () -> maintenanceThreads() <= before);
    }

    private static long maintenanceThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("dbq-maintenance"))
                .count();
    }

    /**
     * close() from a thread whose interrupt flag is set (a cancelled task, a test's timeout) still waits for the batch
     * in hand, and leaves the flag set. Every wait returned at once: the handler was interrupted without its timeout,
     * and its heartbeats stopped while it ran on.
     */
    @Test
    void closeFromAnInterruptedThreadStillWaitsForTheBatchInHand() throws Exception {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("interrupted_close");
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Boolean> handlerInterrupted = new AtomicReference<>(false);
        DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).shutdownTimeout(Duration.ofSeconds(30)).build();
        QueueWorkers workers = dbq.consume(QueueConfig.of(queue).withThreads(1), batch -> {
            inHandler.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                handlerInterrupted.set(true);
                throw e;
            }
        });
        dbq.producer(queue).enqueue("in hand");
        assertTrue(inHandler.await(30, TimeUnit.SECONDS), "the handler running");
        AtomicReference<Boolean> flagAfterClose = new AtomicReference<>();
        Thread closer = new Thread(() -> {
            Thread.currentThread().interrupt();
            dbq.close();
            flagAfterClose.set(Thread.currentThread().isInterrupted());
        });
        closer.start();
        Await.until(Duration.ofSeconds(30), "the close begun", () -> !workers.isRunning());
        release.countDown();
        closer.join(30_000);
        assertEquals(false, handlerInterrupted.get(), "the handler was interrupted");
        assertEquals(true, flagAfterClose.get(), "the caller's interrupt flag is set again");
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + queue.table().name()), "the task finished");
    }

    /**
     * Handlers that ignore the interrupt hold close() for the shutdown timeout and one interrupt grace between all
     * consumers, not a grace per consumer; a queue that was idle is stopped at once, not interrupted.
     */
    @Test
    void closeWaitsTheTimeoutAndOneGraceForHandlersThatIgnoreTheInterrupt() throws Exception {
        QueueLocation stuck = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("stuck");
        QueueLocation alsoStuck = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("also_stuck");
        QueueLocation idle = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("idle");
        CountDownLatch running = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        Duration timeout = Duration.ofMillis(500);
        DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).shutdownTimeout(timeout).build();
        List<QueueWorkers> workers;
        try {
            BatchHandlerIgnoringInterrupts handler = new BatchHandlerIgnoringInterrupts(running, release);
            workers = List.of(dbq.consume(QueueConfig.of(stuck).withThreads(1), handler::handle),
                    dbq.consume(QueueConfig.of(alsoStuck).withThreads(1), handler::handle),
                    dbq.consume(QueueConfig.of(idle).withPoll(RARE_POLL).withThreads(1), batch -> { }));
            dbq.producer(stuck).enqueue("hangs");
            dbq.producer(alsoStuck).enqueue("hangs too");
            assertTrue(running.await(30, TimeUnit.SECONDS), "both handlers running");
            long start = System.nanoTime();
            dbq.close();
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            Duration bound = timeout.plus(QueueWorkers.INTERRUPT_GRACE);
            assertTrue(took.compareTo(bound.plusSeconds(3)) < 0, "close took " + took + "; one grace is " + bound);
            assertFalse(workers.get(2).isRunning(), "the idle queue's worker stopped");
        } finally {
            release.countDown();
            dbq.close();
        }
    }

    /** A handler that signals it runs, then waits for {@code release}, swallowing interrupts. */
    private record BatchHandlerIgnoringInterrupts(CountDownLatch running, CountDownLatch release) {
        void handle(TaskBatch batch) {
            running.countDown();
            while (true) {
                try {
                    if (release.await(60, TimeUnit.SECONDS)) {
                        return;
                    }
                } catch (InterruptedException ignored) {
                    // the kind of handler this test is about
                }
            }
        }
    }

    @Test
    void aConsumerStartedAfterTheListeningBeganIsWokenToo() throws Exception {
        QueueLocation first = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("first");
        QueueLocation later = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("later"); // another table: a new channel
        CountDownLatch idle = new CountDownLatch(1);
        CountDownLatch handled = new CountDownLatch(1);
        QueueListener polls = new QueueListener() {
            @Override
            public void picked(QueueLocation q, List<Task> tasks, long claimNanos) {
                if (q.equals(later) && tasks.isEmpty()) {
                    idle.countDown();
                }
            }
        };
        try (DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).listener(polls).build()) {
            dbq.consume(QueueConfig.of(first).withPoll(RARE_POLL).withWakeup(Wakeup.NOTIFY), batch -> { });
            assertTrue(dbq.isListening());
            dbq.consume(QueueConfig.of(later).withPoll(RARE_POLL).withWakeup(Wakeup.NOTIFY), batch -> handled.countDown());
            assertTrue(idle.await(30, TimeUnit.SECONDS), "the later worker found its queue empty and waits 10 minutes");
            dbq.producer(later).enqueue("wake up");
            assertTrue(handled.await(30, TimeUnit.SECONDS), "the notification woke the later worker");
        }
    }

    /** Zero: no coalescing, as {@code QueueNotifier} and the starter's {@code dbq.notify-interval} allow. */
    @Test
    void aZeroNotifyIntervalNotifiesEveryEnqueue() throws Exception {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("zero");
        BlockingQueue<String> handled = new LinkedBlockingQueue<>();
        try (DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).notifyInterval(Duration.ZERO).build()) {
            dbq.consume(QueueConfig.of(queue).withPoll(RARE_POLL).withWakeup(Wakeup.NOTIFY),
                    batch -> batch.tasks().forEach(t -> handled.add(t.payload())));
            for (String payload : List.of("first", "second")) {
                dbq.producer(queue).enqueue(payload);
                assertEquals(payload, handled.poll(30, TimeUnit.SECONDS), "each enqueue woke the idle worker");
            }
        }
    }

    /**
     * Workers the door starts claim nothing from a queue an operator paused, not even once before the pause watch's
     * first read of them. The race is made certain: every connection the starting thread takes during {@code consume}
     * (the pause watch's first read among them) waits until a batch was handled, or two seconds. Without the door's
     * hold the worker claims the waiting task meanwhile; with it, the worker waits for that read, and the task stays
     * put until a resume.
     */
    @Test
    void workersStartedOnAPausedQueueClaimNothingUntilItResumes() throws Exception {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("paused");
        BlockingQueue<String> handled = new LinkedBlockingQueue<>();
        CountDownLatch aBatchHandled = new CountDownLatch(1);
        AtomicReference<Thread> starting = new AtomicReference<>();
        DataSource startingWaits = waitingFor(starting, () -> aBatchHandled.await(2, TimeUnit.SECONDS));
        try (DbQueue dbq = DbQueue.builder(startingWaits).build()) {
            dbq.producer(queue).enqueue("waits");
            assertTrue(dbq.queueAdmin(queue).pause());
            starting.set(Thread.currentThread());
            QueueWorkers workers = dbq.consume(QueueConfig.of(queue), batch -> {
                batch.tasks().forEach(t -> handled.add(t.payload()));
                aBatchHandled.countDown();
            });
            starting.set(null);
            assertEquals(Set.of(queue), workers.heldQueues(), "held as soon as started");
        } // close() waits for every batch a worker claimed
        assertEquals(List.of(), List.copyOf(handled), "nothing claimed from the paused queue");
        try (DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).build()) {
            assertTrue(dbq.queueAdmin(queue).resume());
            dbq.consume(QueueConfig.of(queue), batch -> batch.tasks().forEach(t -> handled.add(t.payload())));
            assertEquals("waits", handled.poll(30, TimeUnit.SECONDS), "claimed once resumed");
        }
    }

    /**
     * A topic producer notifies per {@link DbQueue.Builder#topicNotifyInterval}, not per the queues' interval: with
     * the queues' at an hour, the second append's wakeup would wait an hour. One partition, so that the member,
     * once it has committed the first record, reads again only when woken (its poll and heartbeat are minutes).
     */
    @Test
    void topicProducersNotifyPerTheTopicInterval() throws Exception {
        String topic = "door_topic_interval";
        LogSchema.recreate(TestDatabase.dataSource(), new Topic(topic, 1, 1_000));
        BlockingQueue<String> handled = new LinkedBlockingQueue<>();
        CountDownLatch committed = new CountDownLatch(1);
        LogListener commits = new LogListener() {
            @Override
            public void consumed(String t, String group, int partition, int records, long lag) {
                committed.countDown();
            }
        };
        try (DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).notifyInterval(Duration.ofHours(1))
                .topicNotifyInterval(Duration.ZERO).logListener(commits).build()) {
            dbq.consumeTopic(GroupConfig.of(topic, "g").withPollInterval(Duration.ofMinutes(10))
                    .withLease(Duration.ofMinutes(30)), batch -> batch.records().forEach(r -> handled.add(r.payload())));
            TopicProducer producer = dbq.topicProducer(topic);
            producer.send("k", "first");
            assertEquals("first", handled.poll(30, TimeUnit.SECONDS));
            assertTrue(committed.await(30, TimeUnit.SECONDS), "the member committed the first record and idles");
            producer.send("k", "second");
            assertEquals("second", handled.poll(30, TimeUnit.SECONDS), "the second append woke the member at once");
        }
    }

    @Test
    void closeStopsWhatTheDoorStartedOnceAndTheDoorStaysShut() throws Exception {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("closing");
        DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).shutdownTimeout(Duration.ofSeconds(5)).build();
        QueueWorkers workers = dbq.consume(QueueConfig.of(queue).withWakeup(Wakeup.NOTIFY), batch -> { });
        assertTrue(workers.isRunning());
        assertTrue(dbq.isListening());
        dbq.close();
        assertFalse(workers.isRunning(), "the door stopped its workers");
        assertFalse(dbq.isListening(), "the door stopped listening");
        dbq.close();
        assertEquals("this DbQueue is closed",
                assertThrows(IllegalStateException.class, () -> dbq.producer(queue)).getMessage());
    }

    /**
     * A handler finishing its batch while the door closes can still enqueue its follow-up through the door, at once:
     * close() used to hold the door's lock while it waited for the batches, so the handler waited out the shutdown
     * timeout and then found the door closed, its task failed.
     */
    @Test
    void aHandlerFinishingDuringCloseStillEnqueuesThroughTheDoor() throws Exception {
        QueueTable table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        QueueLocation queue = table.queue("closing");
        QueueLocation followUps = table.queue("follow_ups");
        Duration timeout = Duration.ofSeconds(20);
        DbQueue dbq = DbQueue.builder(TestDatabase.dataSource()).shutdownTimeout(timeout).build();
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch closeBegan = new CountDownLatch(1);
        QueueWorkers workers = dbq.consume(QueueConfig.of(queue), batch -> {
            inHandler.countDown();
            closeBegan.await();
            batch.tasks().forEach(task -> dbq.producer(followUps).enqueue("after " + task.payload()));
        });
        dbq.producer(queue).enqueue("work");
        assertTrue(inHandler.await(30, TimeUnit.SECONDS));
        long start = System.nanoTime();
        Thread closing = new Thread(dbq::close);
        closing.start();
        Await.until(Duration.ofSeconds(10), "close began", () -> !workers.isRunning() || !closing.isAlive());
        closeBegan.countDown();
        closing.join(timeout.toMillis() + 10_000);
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(timeout) < 0, "close did not wait it out");
        assertEquals(1, TestDatabase.queryLong("SELECT count(*) FROM " + table.name()
                + " WHERE queue_name = 'follow_ups'"), "the follow-up was enqueued");
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + table.name() + " WHERE queue_name = 'closing'"),
                "its task finished");
        assertThrows(IllegalStateException.class, () -> dbq.consume(QueueConfig.of(queue), batch -> { }));
    }
}
