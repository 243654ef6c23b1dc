package io.dbqueue.bench.scenario;

import io.dbqueue.bench.metrics.ClientProbe;
import io.dbqueue.common.Transactions;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueNotifier;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;
import com.zaxxer.hikari.HikariDataSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

/**
 * One run of a scenario in one wakeup mode and fairness setting: a fresh table, the consumers (in
 * this JVM or in child processes), paced producers sending each task when it is due with a commit
 * each, then a drain until every task is finished or dead-lettered, and the figures of
 * {@link RunStatistics}.
 */
final class ScenarioRun {

    static final QueueTable TABLE = new QueueTable("scenario_tasks", Layout.DBQ_SEQ);
    private static final int PRODUCER_THREADS = 8;
    private static final Duration LEAD = Duration.ofMillis(300);
    private static final Duration DRAIN_LIMIT = Duration.ofMinutes(2);

    private final Scenario scenario;
    private final WakeupSetting mode;
    private final Fairness fairness;
    private final PostgresServer server;
    private final HikariDataSource admin;

    ScenarioRun(Scenario scenario, WakeupSetting mode, Fairness fairness, PostgresServer server, HikariDataSource admin) {
        this.scenario = scenario;
        this.mode = mode;
        this.fairness = fairness;
        this.server = server;
        this.admin = admin;
    }

    /** Connections for a consumer JVM's workers: claims and acknowledgements are short, idle workers hold none. */
    static int poolFor(int workers) {
        return Math.min(workers + 2, 20);
    }

    RunResult run() throws Exception {
        Schema.recreate(admin, TABLE);
        List<String> queues = fairness.perTenantQueues()
                ? IntStream.range(0, scenario.tenants()).mapToObj(t -> "tenant_" + t).toList() : List.of("shared");
        TaskLedger ledger = new TaskLedger();
        int attempts = scenario.failures().map(Scenario.Failures::attempts).orElse(0);
        Duration backoff = scenario.failures().map(Scenario.Failures::backoff).orElse(Duration.ZERO);
        List<ConsumerSpec> specs = new ArrayList<>();
        for (int p = 0; p < scenario.processes(); p++) {
            int workers = scenario.workers() / scenario.processes() + (p < scenario.workers() % scenario.processes() ? 1 : 0);
            specs.add(new ConsumerSpec(TABLE.name(), TABLE.layout(), queues, workers, scenario.batchSize(), mode.label(),
                    scenario.work(), Math.min(scenario.fairnessCap(), workers), attempts, backoff,
                    scenario.rateLimit().map(Scenario.RateLimit::perSecond).orElse(0.0),
                    scenario.rateLimit().map(Scenario.RateLimit::burst).orElse(0)));
        }
        try (Consumers consumers = Consumers.start(specs, server, ledger);
             HikariDataSource producerPool = server.dataSource(PRODUCER_THREADS + 2);
             QueueNotifier notifier = new QueueNotifier(producerPool)) {
            Map<String, QueueProducer> producers = new HashMap<>();
            QueueNotifier wakeups = mode.notifies() ? notifier : null;
            queues.forEach(q -> producers.put(q, new QueueProducer(producerPool, TABLE.queue(q), QueueListener.NONE,
                    Transactions.JDBC, wakeups)));
            long startNanos = System.nanoTime() + LEAD.toNanos();
            long startMicros = TaskEvents.nowMicros() + LEAD.toNanos() / 1000;
            long windowStart = startMicros + scenario.warmup().toNanos() / 1000;
            long windowEnd = windowStart + scenario.duration().toNanos() / 1000;
            AtomicReference<Exception> failure = new AtomicReference<>();
            List<Thread> threads = produce(startNanos, startMicros, producers, queues.size() > 1, ledger, failure);
            LockSupport.parkNanos(startNanos + scenario.warmup().plus(scenario.duration()).toNanos()
                    - Duration.ofMillis(500).toNanos() - System.nanoTime()); // until just before the window ends
            long[] process = consumers.threadsAndRss();
            long connections = ClientProbe.connections(admin);
            for (Thread t : threads) {
                t.join();
            }
            if (failure.get() != null) {
                throw failure.get();
            }
            drain(ledger);
            consumers.stop();
            RunStatistics stats = new RunStatistics(ledger.entries(), windowStart, windowEnd,
                    attempts > 0 ? attempts : Integer.MAX_VALUE);
            return new RunResult(stats.throughput(), stats.sent(), stats.completed(), stats.pickup(e -> true),
                    stats.endToEnd(), stats.lateness(), stats.claimedBeforeAck(), stats.tenants(),
                    scenario.hasNoisyTenant() ? stats.pickup(e -> e.tenant != 0).p95() : 0, stats.failures(), stats.undrained(),
                    notifier.sent(), consumers.switches(), process[0], Math.round(process[1] / 1e5) / 10.0, connections,
                    ledger.claimRate(windowStart, windowEnd));
        }
    }

    /** Starts the producer threads; each takes the next task number and sends it when it is due. */
    private List<Thread> produce(long startNanos, long startMicros, Map<String, QueueProducer> producers,
                                 boolean perTenant, TaskLedger ledger, AtomicReference<Exception> failure) {
        long count = scenario.taskCount();
        AtomicLong next = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < PRODUCER_THREADS; i++) {
            Thread t = new Thread(() -> {
                for (long k = next.getAndIncrement(); k < count && failure.get() == null; k = next.getAndIncrement()) {
                    int tenant = scenario.tenantOf(k);
                    if (fairness == Fairness.QUIET_ONLY && tenant == 0) {
                        continue;
                    }
                    long due = scenario.sendNanos(k);
                    LockSupport.parkNanos(startNanos + due - System.nanoTime());
                    int planned = scenario.plannedFailures(k);
                    try {
                        long sentMicros = TaskEvents.nowMicros(); // before the insert's now(), the row's due time is after
                        long id = producers.get(perTenant ? "tenant_" + tenant : "shared")
                                .enqueue(ScenarioHandler.payload(tenant, planned, k), scenario.delay());
                        ledger.sent(id, tenant, planned, startMicros + due / 1000, TaskEvents.nowMicros());
                        if (!scenario.delay().isZero()) {
                            ledger.comesDue(id, 1, sentMicros + scenario.delay().toNanos() / 1000);
                        }
                    } catch (RuntimeException e) {
                        failure.compareAndSet(null, e);
                    }
                }
            }, "scenario-producer-" + i);
            t.start();
            threads.add(t);
        }
        return threads;
    }

    private static void drain(TaskLedger ledger) throws InterruptedException {
        long deadline = System.nanoTime() + DRAIN_LIMIT.toNanos();
        while (ledger.open() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50); // the lab polls its own ledger; the workers run meanwhile
        }
    }
}
