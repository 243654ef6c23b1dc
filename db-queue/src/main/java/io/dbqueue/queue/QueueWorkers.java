package io.dbqueue.queue;

import io.dbqueue.common.Checks;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.InvalidValueException;
import io.dbqueue.common.Transactions;
import io.dbqueue.wakeup.WakeupSignal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The worker threads of one queue, or of a {@link QueueGroup} of queues taken in turn. Each thread
 * claims a batch, gives it to the handler, and acknowledges the answers, per {@link QueueConfig#mode()};
 * or, started with {@link #startWithExecutor}, only claims and leaves handling and acknowledging to an
 * executor. A worker never dies of a failure: it logs, reports {@link QueueListener#crashed}, backs off
 * and goes on; a task it had claimed is never lost (its lease expires, or its transaction rolls back).
 *
 * <p>How long an idle worker waits follows {@link QueueConfig#wakeup()}: with {@link Wakeup#NOTIFY} it
 * waits the no-task timeout unless a notification wakes it, and a worker whose claim came back full
 * wakes one more, so a burst brings in as many workers as it needs and a single task only one.
 *
 * <p>An idle worker also wakes when a task not yet due comes due, if that is before its poll: one
 * worker wakes at the due time of each retry or re-enqueue these workers wrote, and with
 * {@link Wakeup#NOTIFY} or {@link Wakeup#ADAPTIVE} a worker of one queue whose claim leaves it idle
 * looks up when the queue's next task comes due (delayed tasks, others' retries), where the layout
 * can tell cheaply ({@link QueueSql#nextDueComposite}).
 */
public final class QueueWorkers implements AutoCloseable {

    /** How long workers interrupted at the end of a shutdown get, between them, to return from their handlers. */
    public static final Duration INTERRUPT_GRACE = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(QueueWorkers.class);
    private static final int MAX_BACKOFF_DOUBLINGS = 5;

    private final QueueConfig config;
    private final List<QueueLocation> locations;
    private final List<BatchProcessor> processors = new ArrayList<>();
    private final List<Semaphore> queueSlots; // per queue of a group: workers on it at once; null for one queue
    private final AtomicInteger rotation = new AtomicInteger();
    private final AtomicBoolean[] notifiedQueues; // per queue of a group: notified since a claim last tried it
    private final AdaptiveWakeup adaptive; // null unless Wakeup.ADAPTIVE
    private final QueueListener listener;
    private final WakeupSignal signal;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicInteger busy = new AtomicInteger();
    private final Executor handlers;
    private final int maxBatchesInFlight;
    private final Semaphore batchesInFlight;
    /**
     * Whether an in-flight or per-key limit can cut a claim short: places freed later wake no worker (no
     * notification says so), so a partial claim is followed by the between-task poll even with notify wakeups.
     */
    private final boolean placesCapClaims;
    private final boolean looksUpNextDue;
    private volatile boolean running = true;
    private volatile boolean paused;
    private volatile Set<QueueLocation> held = Set.of(); // paused by an operator, see hold()

    private QueueWorkers(DataSource dataSource, QueueConfig config, QueueGroup group, BatchHandler handler,
                         QueueListener listener, Transactions transactions, Executor handlers, int maxBatchesInFlight) {
        this.config = Objects.requireNonNull(config, "config");
        this.locations = group == null ? List.of(config.location()) : group.locations();
        this.queueSlots = group == null ? null
                : locations.stream().map(q -> new Semaphore(group.maxWorkersPerQueue())).toList();
        this.notifiedQueues = group == null ? null
                : locations.stream().map(q -> new AtomicBoolean()).toArray(AtomicBoolean[]::new);
        this.adaptive = config.wakeup() == Wakeup.ADAPTIVE ? new AdaptiveWakeup(System.nanoTime()) : null;
        this.signal = new WakeupSignal(config.threads());
        this.handlers = handlers;
        this.maxBatchesInFlight = maxBatchesInFlight;
        this.batchesInFlight = new Semaphore(maxBatchesInFlight);
        Objects.requireNonNull(listener, "listener");
        this.listener = SafeListener.wrap(config.wakeup() == Wakeup.POLL ? listener
                : QueueListener.composite(List.of(listener, new BringInAnother(signal, config.poll().batchSize()))));
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(transactions, "transactions");
        for (QueueLocation q : locations) {
            processors.add(new BatchProcessor(dataSource, config.withLocation(q), handler, this.listener, transactions,
                    this::comesDue));
        }
        // A group's queues would take a look-up each per idle cycle; its workers wake for their own retries only.
        this.looksUpNextDue = config.wakeup() != Wakeup.POLL && processors.size() == 1
                && processors.get(0).knowsNextDue();
        this.placesCapClaims = processors.stream().anyMatch(BatchProcessor::placesCapClaims);
    }

    public static QueueWorkers start(DataSource dataSource, QueueConfig config, BatchHandler handler) {
        return start(dataSource, config, handler, QueueListener.NONE);
    }

    public static QueueWorkers start(DataSource dataSource, QueueConfig config, BatchHandler handler,
                                     QueueListener listener) {
        return start(dataSource, config, handler, listener, threads(config.location()));
    }

    /** The workers' threads unless given others: platform threads named {@code dbq-<table>-<queue>-<n>}. */
    public static ThreadFactory threads(QueueLocation queue) {
        AtomicInteger n = new AtomicInteger();
        return r -> new Thread(r, "dbq-" + queue.table().name() + "-" + queue.queueName() + "-" + n.incrementAndGet());
    }

    /** As {@link #start(DataSource, QueueConfig, BatchHandler, QueueListener)} on threads from {@code threadFactory}
     *  (on JDK 21+, {@code Thread.ofVirtual().factory()} gives virtual threads). */
    public static QueueWorkers start(DataSource dataSource, QueueConfig config, BatchHandler handler,
                                     QueueListener listener, ThreadFactory threadFactory) {
        return start(dataSource, config, handler, listener, threadFactory, Transactions.JDBC);
    }

    /**
     * As {@link #start(DataSource, QueueConfig, BatchHandler, QueueListener, ThreadFactory)}, with an
     * exactly-once batch's claim, handler and answers in a new transaction of {@code transactions}.
     */
    public static QueueWorkers start(DataSource dataSource, QueueConfig config, BatchHandler handler,
                                     QueueListener listener, ThreadFactory threadFactory, Transactions transactions) {
        return new QueueWorkers(dataSource, config, null, handler, listener, transactions, null, 0)
                .startThreads(threadFactory);
    }

    /**
     * Workers that take the queues of {@code group} in turn ({@link QueueGroup} says how), configured
     * by {@code config}, whose table must be the group's (its queue name is not used).
     */
    public static QueueWorkers startGroup(DataSource dataSource, QueueConfig config, QueueGroup group,
                                          BatchHandler handler, QueueListener listener, ThreadFactory threadFactory,
                                          Transactions transactions) {
        if (!config.location().table().equals(group.table())) {
            throw new InvalidValueException("location.table", "must be the group's table " + group.table().name(),
                    config.location().table().name());
        }
        return new QueueWorkers(dataSource, config, group, handler, listener, transactions, null, 0)
                .startThreads(threadFactory);
    }

    /**
     * The experiment's "external executor" mode: the {@link QueueConfig#threads()} worker threads from
     * {@code threadFactory} only claim batches, and {@code handlers} runs the handler and acknowledges
     * each batch. A worker claims only while fewer than {@code maxBatchesInFlight} batches are with the
     * executor; a batch waiting in its queue (an executor with fewer threads, or shared) keeps its leases, and its
     * in-flight places, by heartbeats from its claim on, as a running one does, for at most ten leases (a job the
     * executor drops never runs: its tasks come back then). A batch the
     * executor rejects is handled on the worker thread. Not for {@link DeliveryMode#EXACTLY_ONCE}: its
     * claim, handler and finish are one transaction on the worker's connection.
     */
    public static QueueWorkers startWithExecutor(DataSource dataSource, QueueConfig config, BatchHandler handler,
                                                 QueueListener listener, ThreadFactory threadFactory,
                                                 Executor handlers, int maxBatchesInFlight) {
        Objects.requireNonNull(handlers, "handlers");
        if (config.mode() == DeliveryMode.EXACTLY_ONCE) {
            throw new InvalidValueException("mode", "must be AT_LEAST_ONCE or AT_MOST_ONCE with an external executor"
                    + " (EXACTLY_ONCE claims, handles and finishes a batch in one transaction on the worker's connection)",
                    config.mode());
        }
        Checks.atLeast("maxBatchesInFlight", maxBatchesInFlight, 1);
        return new QueueWorkers(dataSource, config, null, handler, listener, Transactions.JDBC, handlers,
                maxBatchesInFlight).startThreads(threadFactory);
    }

    private QueueWorkers startThreads(ThreadFactory threadFactory) {
        for (int i = 0; i < config.threads(); i++) {
            threads.add(threadFactory.newThread(this::work));
        }
        threads.forEach(Thread::start);
        return this;
    }

    public QueueConfig config() {
        return config;
    }

    /** The queues these workers claim from: the config's, or those of the group. */
    public List<QueueLocation> locations() {
        return locations;
    }

    /** Stops claiming; batches in progress complete. */
    public void pause() {
        paused = true;
        signal.signalAll();
    }

    public void resume() {
        paused = false;
        signal.signalAll();
    }

    public boolean isPaused() {
        return paused;
    }

    /**
     * Which of {@link #locations()} these workers leave alone because an operator paused them
     * ({@link QueueAdmin#pause}), as the {@link PauseWatch} last read; with all of them held the workers wait as
     * paused. Separate from {@link #pause()}: neither undoes the other.
     */
    public Set<QueueLocation> heldQueues() {
        return held;
    }

    void hold(Set<QueueLocation> paused) {
        Set<QueueLocation> mine = Set.copyOf(locations.stream().filter(paused::contains).toList());
        if (!mine.equals(held)) {
            held = mine;
            signal.signalAll();
        }
    }

    private boolean stopped() {
        return paused || held.size() == locations.size();
    }

    /** Cuts idle workers' poll wait short, e.g. right after this process enqueued. */
    public void wakeup() {
        signal.signalAll();
    }

    /** A notification of new tasks: wakes one idle worker, who wakes another if its claim comes back full. */
    public void notified() {
        signal.signalOne();
    }

    /**
     * A notification of new tasks in {@code queue}, one of {@link #locations()}: as {@link #notified()},
     * and the next claim of a group's worker tries that queue first.
     */
    public void notified(QueueLocation queue) {
        int index = locations.indexOf(queue);
        if (index >= 0 && notifiedQueues != null) {
            notifiedQueues[index].set(true);
        }
        notified();
    }

    /** Whether these workers want notifications now: always with NOTIFY, while keeping up with ADAPTIVE. */
    public boolean wantsNotifications() {
        return switch (config.wakeup()) {
            case POLL -> false;
            case NOTIFY -> true;
            case ADAPTIVE -> adaptive.listening(System.nanoTime());
        };
    }

    /** How often ADAPTIVE workers have switched between listening and polling (0 for the other modes). */
    public long wakeupSwitches() {
        return adaptive == null ? 0 : adaptive.switches();
    }

    /** Batches being claimed, handled or acknowledged right now (on the executor too). */
    public int busyWorkers() {
        return busy.get();
    }

    public boolean isRunning() {
        return running && threads.stream().anyMatch(Thread::isAlive);
    }

    /**
     * Stops {@code workers} together: all stop claiming at once, then their batches in progress get up to
     * {@code timeout} between them; the workers still busy then are all interrupted together and get
     * {@link #INTERRUPT_GRACE} more between them ({@link #shutdown}); those not done in time are logged.
     */
    public static void shutdownAll(Collection<QueueWorkers> workers, Duration timeout) {
        stop(workers, timeout);
    }

    /**
     * Stops claiming and waits up to {@code timeout} for batches in progress to be acknowledged.
     * Workers still busy then are interrupted and get {@link #INTERRUPT_GRACE} more: an at-least-once
     * batch whose handler returns keeps the answers given and releases its other tasks at once; an
     * exactly-once batch rolls back. A handler that ignores the interrupt keeps its thread (a platform
     * thread keeps the JVM alive) and its tasks, which reappear when their leases expire. Batches on an
     * external executor are not interrupted (its threads are not ours): their tasks reappear when their
     * leases expire. Returns whether every batch was done in time.
     */
    public boolean shutdown(Duration timeout) {
        return stop(List.of(this), timeout).isEmpty();
    }

    /** Stops {@code workers} as {@link #shutdownAll} says; returns those not done in time. */
    private static List<QueueWorkers> stop(Collection<QueueWorkers> workers, Duration timeout) {
        for (QueueWorkers w : workers) {
            w.running = false;
            w.signal.signalAll();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        List<QueueWorkers> busy = workers.stream().filter(w -> !w.joinUntil(deadline)).toList();
        for (QueueWorkers w : busy) {
            LOG.warn("{}: workers still busy after {}, interrupting them", w.config.location(), timeout);
            w.processors.forEach(BatchProcessor::interrupting); // before the interrupt, which a handler may swallow
            w.threads.forEach(Thread::interrupt);
        }
        long grace = System.nanoTime() + INTERRUPT_GRACE.toNanos();
        List<QueueWorkers> late = new ArrayList<>(busy);
        for (QueueWorkers w : workers) {
            if (busy.contains(w) && !w.joinUntil(grace)) {
                LOG.warn("{}: handlers still running {} after the interrupt; their tasks reappear when their"
                        + " leases expire", w.config.location(), INTERRUPT_GRACE);
            }
            if (!w.executorDrained(deadline) && !late.contains(w)) {
                late.add(w);
            }
            w.processors.forEach(BatchProcessor::close);
        }
        return late;
    }

    /**
     * The wait after {@code failures} failed cycles in a row: the fatal-crash timeout, doubled for each failure after
     * the first up to {@value #MAX_BACKOFF_DOUBLINGS} times, and at most Long.MAX_VALUE nanoseconds (a long timeout,
     * doubled, must not overflow into a negative wait and a tight loop against a database that is down).
     */
    static long backoffNanos(Duration fatalCrashTimeout, int failures) {
        long base = fatalCrashTimeout.toNanos();
        int doublings = Math.min(failures - 1, MAX_BACKOFF_DOUBLINGS);
        return base > (Long.MAX_VALUE >> doublings) ? Long.MAX_VALUE : base << doublings;
    }

    private boolean executorDrained(long deadline) {
        if (handlers == null) {
            return true;
        }
        try {
            if (batchesInFlight.tryAcquire(maxBatchesInFlight, Math.max(0, deadline - System.nanoTime()),
                    TimeUnit.NANOSECONDS)) {
                batchesInFlight.release(maxBatchesInFlight);
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.warn("{}: {} batches still on the executor at the deadline; their tasks reappear when their leases expire",
                config.location(), maxBatchesInFlight - batchesInFlight.availablePermits());
        return false;
    }

    /** {@link #shutdown} with 30 seconds to finish. */
    @Override
    public void close() {
        shutdown(Duration.ofSeconds(30));
    }

    private boolean joinUntil(long deadline) {
        for (Thread thread : threads) {
            long left = deadline - System.nanoTime();
            try {
                if (left > 0) {
                    thread.join(Math.max(1, left / 1_000_000));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            if (thread.isAlive()) {
                return false;
            }
        }
        return true;
    }

    private void work() {
        PollSettings poll = config.poll();
        int failures = 0;
        while (running) {
            try {
                if (stopped()) {
                    signal.awaitWhile(() -> stopped() && running);
                    continue;
                }
                long wait;
                long signalsSeen = signal.generation();
                busy.incrementAndGet();
                try {
                    if (stopped()) {
                        // pause() came after the check above; whoever waits for busyWorkers() == 0 relies on this.
                        continue;
                    }
                    int claimed = handlers == null ? claimFromNextQueue() : dispatch();
                    failures = 0;
                    wait = waitAfter(claimed, poll);
                    long untilToken = claimed == 0 ? untilNextToken(wait) : 0;
                    if (untilToken > 0) {
                        wait = untilToken; // the rate limit, not the tasks' due times, says when to claim again
                    } else if (looksUpNextDue && wait == poll.noTaskTimeout().toNanos()) {
                        long untilDue = processors.get(0).untilNextDue();
                        if (untilDue >= 0) {
                            comesDue(System.nanoTime() + untilDue);
                        }
                    }
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception e) {
                    failures++;
                    LOG.warn("{}: worker cycle failed ({} in a row), backing off: {}", config.location(), failures,
                            e.toString());
                    listener.crashed(config.location(), e);
                    wait = backoffNanos(poll.fatalCrashTimeout(), failures);
                } finally {
                    busy.decrementAndGet();
                }
                if (wait > 0 && running) {
                    signal.awaitSince(signalsSeen, wait);
                }
            } catch (InterruptedException e) {
                if (running) {
                    LOG.warn("{}: worker interrupted while running; stopping this worker", config.location());
                }
                return;
            } catch (Error e) {
                LOG.error("{}: worker stopped by {}", config.location(), e.toString(), e);
                listener.crashed(config.location(), e);
                throw e;
            }
        }
    }

    /**
     * Claims from a group's queues notified since they were last tried, then from the queue whose turn
     * it is and the next ones if it is empty or has its most workers, until one has tasks. Returns the
     * number claimed.
     */
    private int claimFromNextQueue() throws SQLException, InterruptedException {
        int n = processors.size();
        if (n == 1) {
            return processors.get(0).runOnce();
        }
        for (int q = 0; q < n; q++) { // notified queues first: a woken worker goes where the task is
            if (notifiedQueues[q].compareAndSet(true, false)) {
                int claimed = claimFrom(q);
                if (claimed > 0) {
                    return claimed;
                }
            }
        }
        int start = Math.floorMod(rotation.getAndIncrement(), n);
        for (int i = 0; i < n; i++) {
            int claimed = claimFrom((start + i) % n);
            if (claimed > 0) {
                return claimed;
            }
        }
        return 0;
    }

    /** Claims from queue {@code q} of a group, unless it has its most workers already. */
    private int claimFrom(int q) throws SQLException, InterruptedException {
        Semaphore slots = queueSlots.get(q);
        if (held.contains(locations.get(q)) || !slots.tryAcquire()) {
            return 0;
        }
        try {
            return processors.get(q).runOnce();
        } finally {
            slots.release();
        }
    }

    /**
     * How long to wait before the next claim, after one that claimed {@code claimed} tasks. In a
     * group, any tasks mean another round at once: the round stopped at the first queue with tasks,
     * and the queues after it may have some whose notification woke only this worker.
     */
    private long waitAfter(int claimed, PollSettings poll) {
        long now = System.nanoTime();
        if (adaptive != null) {
            adaptive.claimed(claimed, poll.batchSize(), busy.get() >= config.threads(), now); // this worker counts as busy
        }
        if (claimed >= poll.batchSize() || (claimed > 0 && processors.size() > 1)) {
            return 0;
        }
        boolean tight = switch (config.wakeup()) {
            case POLL -> claimed > 0;
            case NOTIFY -> claimed > 0 && placesCapClaims;
            case ADAPTIVE -> adaptive.pollTightly(now) || (claimed > 0 && placesCapClaims);
        };
        return tight ? poll.betweenTaskTimeout().toNanos() : poll.noTaskTimeout().toNanos();
    }

    /**
     * A task comes due at {@code nanoTime}: one idle worker is to wake for it, if that is before the
     * no-task poll would wake it anyway.
     */
    private void comesDue(long nanoTime) {
        if (nanoTime - System.nanoTime() < config.poll().noTaskTimeout().toNanos()) {
            signal.signalOneAt(nanoTime);
        }
    }

    /**
     * After a claim that found no task: when a queue's rate limit ran out of tokens, the wait until its next token
     * is due, which may be sooner than a poll's and keeps the workers from polling the limit meanwhile; 0 when no
     * rate limit ran out. In a group, no later than {@code wait} while another of its queues is not held back.
     */
    private long untilNextToken(long wait) {
        long soonest = Long.MAX_VALUE;
        boolean everyQueueWaits = true;
        for (BatchProcessor processor : processors) {
            long next = processor.nanosUntilNextToken();
            if (next > 0) {
                soonest = Math.min(soonest, next);
            } else {
                everyQueueWaits = false;
            }
        }
        if (soonest == Long.MAX_VALUE) {
            return 0;
        }
        // A queue of a group that no rate limit holds back is claimed from again after the usual wait.
        return everyQueueWaits ? soonest : Math.min(wait, soonest);
    }

    /**
     * With notifications, a claim that came back full may have left more tasks than the one
     * notification's worker can take: it wakes one more idle worker as soon as the claim returns,
     * before its batch is handled, and that one does the same, so a burst brings in as many workers
     * as it needs and a single task only one.
     */
    private record BringInAnother(WakeupSignal signal, int batchSize) implements QueueListener {
        @Override
        public void picked(QueueLocation queue, List<Task> tasks, long claimNanos) {
            if (tasks.size() >= batchSize) {
                signal.signalOne();
            }
        }
    }

    /** Waits for room on the executor, then claims a batch and hands it over. */
    private int dispatch() throws SQLException, InterruptedException {
        batchesInFlight.acquire();
        if (!running || stopped()) {
            batchesInFlight.release();
            return 0;
        }
        busy.incrementAndGet();
        Runnable done = () -> {
            busy.decrementAndGet();
            batchesInFlight.release();
        };
        int claimed = 0;
        try {
            claimed = processors.get(0).dispatchOnce(handlers, done);
            return claimed;
        } finally {
            if (claimed == 0) {
                done.run();
            }
        }
    }
}
