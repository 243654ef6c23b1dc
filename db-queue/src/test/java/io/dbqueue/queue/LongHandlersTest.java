package io.dbqueue.queue;

import io.dbqueue.Await;
import io.dbqueue.Gate;
import io.dbqueue.TestDatabase;
import io.dbqueue.postgres.PostgresServer;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Slow and long handlers: connections released while they run, leases kept by heartbeats while they live. */
class LongHandlersTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration LEASE = Duration.ofSeconds(1);
    private static final PollSettings FAST_POLL = PollSettings.DEFAULT.withBatchSize(1)
            .withTimeouts(Duration.ZERO, Duration.ofMillis(5), Duration.ofMillis(50));

    private final DataSource ds = TestDatabase.dataSource();
    private QueueTable table;
    private QueueLocation queue;
    private QueueProducer producer;

    @BeforeEach
    void freshTable() throws SQLException {
        table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        queue = table.queue("long");
        producer = new QueueProducer(ds, queue);
    }

    @Test
    void handlersHoldNoConnectionSoProducersInTheSameProcessKeepGoing() throws Exception {
        for (DeliveryModeCase mode : DeliveryModeCase.values()) {
            freshTable();
            int workers = 8;
            try (HikariDataSource pool = TestDatabase.server().dataSource(3)) {
                pool.setConnectionTimeout(2_000);
                QueueProducer sameProcess = new QueueProducer(pool, queue);
                sameProcess.enqueueAll(Collections.nCopies(workers, "slow"));
                CountDownLatch allRunning = new CountDownLatch(workers);
                Gate release = new Gate();
                QueueWorkers running = QueueWorkers.start(pool,
                        QueueConfig.of(queue).withMode(mode.mode).withThreads(workers).withPoll(FAST_POLL), batch -> {
                            allRunning.countDown();
                            release.pass();
                        });
                try {
                    assertTrue(allRunning.await(30, TimeUnit.SECONDS),
                            mode + ": " + workers + " handlers run at once on a pool of 3");
                    // Every handler is busy, yet the pool serves the producer (its timeout is 2 s).
                    for (int i = 0; i < 20; i++) {
                        sameProcess.enqueueAll(Collections.nCopies(100, "more"));
                    }
                } finally {
                    release.open();
                    assertTrue(running.shutdown(TIMEOUT));
                }
                release.assertNoWaitTimedOut();
            }
        }
    }

    private enum DeliveryModeCase {
        AT_LEAST_ONCE(io.dbqueue.common.DeliveryMode.AT_LEAST_ONCE), AT_MOST_ONCE(io.dbqueue.common.DeliveryMode.AT_MOST_ONCE);

        final io.dbqueue.common.DeliveryMode mode;

        DeliveryModeCase(io.dbqueue.common.DeliveryMode mode) {
            this.mode = mode;
        }
    }

    @Test
    void aTaskRunningThreeLeasesIsHandledOnce() throws Exception {
        assertEquals(1, handlings(true), "with heartbeats the running task is never handed out again");
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + table.name()), "the task finished");
    }

    @Test
    void withoutHeartbeatsTheSameTaskIsHandedOutWhileItRuns() throws Exception {
        assertTrue(handlings(false) >= 2, "the lease expired while the handler ran");
    }

    /** Runs one task whose handler takes three leases, with a second worker polling; returns how often it was handled. */
    private int handlings(boolean heartbeat) throws Exception {
        producer.enqueue("three leases");
        AtomicInteger handled = new AtomicInteger();
        CountDownLatch firstDone = new CountDownLatch(1);
        QueueConfig config = QueueConfig.of(queue).withThreads(2).withPoll(FAST_POLL).withLeaseTimeout(LEASE)
                .withLeaseHeartbeat(heartbeat);
        QueueWorkers workers = QueueWorkers.start(ds, config, batch -> {
            if (handled.incrementAndGet() == 1) {
                Thread.sleep(3 * LEASE.toMillis()); // the work itself: three leases long
                firstDone.countDown();
            }
        });
        try {
            assertTrue(firstDone.await(30, TimeUnit.SECONDS));
            Await.until(TIMEOUT, "the task acknowledged", () -> TestDatabase.queryLong(
                    "SELECT count(*) FROM " + table.name()) == 0);
        } finally {
            assertTrue(workers.shutdown(TIMEOUT));
        }
        return handled.get();
    }

    @Test
    void anExplicitHeartbeatTellsWhetherTheBatchStillHoldsItsTasks() throws Exception {
        long id = producer.enqueue("watched");
        List<Integer> held = Collections.synchronizedList(new ArrayList<>());
        List<Integer> takenOver = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(1);
        TaskStore other = new TaskStore(queue);
        QueueConfig config = QueueConfig.of(queue).withPoll(FAST_POLL).withLeaseTimeout(LEASE).withLeaseHeartbeat(false);
        QueueWorkers workers = QueueWorkers.start(ds, config, batch -> {
            if (done.getCount() == 0) {
                return;
            }
            held.add(batch.heartbeat());
            // Another consumer takes the task over, as after an expired lease.
            TestDatabase.execute("UPDATE " + table.name() + " SET next_process_at = now() WHERE id = " + id);
            try (Connection c = ds.getConnection()) {
                takenOver.add(other.claim(c, 1, io.dbqueue.common.DeliveryMode.AT_LEAST_ONCE, TIMEOUT).size());
            }
            held.add(batch.heartbeat());
            done.countDown();
        });
        try {
            assertTrue(done.await(30, TimeUnit.SECONDS));
        } finally {
            assertTrue(workers.shutdown(TIMEOUT));
        }
        assertEquals(List.of(1), takenOver, "the other consumer claimed the task");
        assertEquals(List.of(1, 0), held);
    }

    @Test
    void aKilledConsumersTaskIsPickedUpOneLeaseLater() throws Exception {
        Duration lease = Duration.ofSeconds(3);
        long id = producer.enqueue("orphan to be");
        PostgresServer server = TestDatabase.server();
        Process consumer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LeaseHolder.class.getName(),
                server.jdbcUrl(), server.user(), server.password() == null ? "" : server.password(),
                table.layout().name(), queue.queueName(), Long.toString(lease.toMillis()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        TaskStore store = new TaskStore(queue);
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(consumer.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("HANDLING " + id, out.readLine());
            // Alive, the consumer keeps its task for two leases and more.
            long aliveUntil = System.nanoTime() + lease.multipliedBy(2).plusMillis(500).toNanos();
            while (System.nanoTime() < aliveUntil) {
                assertEquals(List.of(), claim(store), "a live consumer's task was handed out again");
                Thread.sleep(100);
            }
        } finally {
            consumer.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook, no release
        }
        long killed = System.nanoTime();
        List<Task> again = new ArrayList<>();
        Await.until(TIMEOUT, "the killed consumer's task reappears", () -> again.addAll(claim(store)));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
        assertEquals(id, again.get(0).id());
        // The last heartbeat was at most half an interval before the kill: at least half a lease is left.
        assertTrue(millis >= lease.toMillis() / 2 && millis <= lease.toMillis() + 2_000,
                "picked up " + millis + " ms after the kill, lease " + lease.toMillis() + " ms");
    }

    private List<Task> claim(TaskStore store) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return store.claim(c, 1, io.dbqueue.common.DeliveryMode.AT_LEAST_ONCE, TIMEOUT);
        }
    }
}
