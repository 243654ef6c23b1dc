package io.dbqueue.queue;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.Transactions;
import io.dbqueue.internal.Jdbc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;

/** One claim-handle-acknowledge cycle of a worker, for each delivery mode, on the worker's thread or an executor. */
final class BatchProcessor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BatchProcessor.class);

    private final DataSource dataSource;
    private final QueueConfig config;
    private final Delivery delivery;
    private final BatchHandler handler;
    private final QueueListener listener;
    private final TaskStore store;
    private final QueueLocation queue;
    private final LeaseKeeper leases;
    private final ClaimLimiter limiter; // null: the queue has no limits
    private final Transactions transactions;
    private final LongConsumer comesDue; // told the System.nanoTime() at which a retry or re-enqueue it wrote is due
    private volatile boolean interrupting; // a forced shutdown is interrupting the workers

    BatchProcessor(DataSource dataSource, QueueConfig config, BatchHandler handler, QueueListener listener,
                   Transactions transactions) {
        this(dataSource, config, handler, listener, transactions, dueAt -> { });
    }

    BatchProcessor(DataSource dataSource, QueueConfig config, BatchHandler handler, QueueListener listener,
                   Transactions transactions, LongConsumer comesDue) {
        this.dataSource = dataSource;
        this.comesDue = comesDue;
        this.transactions = transactions;
        this.config = config;
        this.delivery = Delivery.of(config.mode());
        this.handler = handler;
        this.listener = listener;
        this.queue = config.location();
        this.store = new TaskStore(queue, config.history() != null);
        this.limiter = ClaimLimiter.of(config);
        this.leases = new LeaseKeeper(dataSource, store, queue, config.leaseTimeout(), limiter);
    }

    /** Whether the queue's in-flight or per-key limit can take fewer tasks than a claim asks for. */
    boolean placesCapClaims() {
        return limiter != null && limiter.holdsPlaces();
    }

    /** Whether {@link #untilNextDue} can tell, on this queue's layout. */
    boolean knowsNextDue() {
        return store.knowsNextDue();
    }

    /** Nanoseconds until the queue's earliest task not yet due comes due; -1 for none, or unknown. */
    long untilNextDue() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            long micros = store.untilNextDue(c);
            return micros < 0 ? -1 : micros * 1000;
        }
    }

    /** Stops the lease heartbeats. */
    @Override
    public void close() {
        leases.close();
    }

    /**
     * Claims one batch and processes it. Returns the number of tasks claimed. At least once and at
     * most once, no connection is held while the handler runs: the claim's goes back to the pool
     * before, and the acknowledgement takes one after, so slow handlers do not drain the pool.
     */
    int runOnce() throws SQLException, InterruptedException {
        return delivery.runOnce(this);
    }

    /** At least once or at most once: claims a batch in a transaction of its own, then processes it. */
    int claimAndProcess() throws SQLException, InterruptedException {
        Claim claim = claimOnItsOwn();
        if (claim.size() > 0) {
            delivery.process(this, claim);
        }
        return claim.size();
    }

    /**
     * Claims one batch on the calling thread and hands its handling and acknowledgement to
     * {@code executor}, which runs {@code done} when it is over; {@code done} runs exactly once when
     * this returns a claim of one task or more, and not otherwise. An executor that rejects the batch makes the calling thread handle it, so
     * nothing claimed waits unhandled. AT_LEAST_ONCE and AT_MOST_ONCE only. Returns the number of
     * tasks claimed.
     */
    int dispatchOnce(Executor executor, Runnable done) throws SQLException {
        Claim claim = claimOnItsOwn();
        if (claim.size() == 0) {
            return 0;
        }
        // Held from now, not from when the executor runs it: a batch waiting in the executor's queue (fewer threads
        // than batches in flight, or threads shared) lost its leases and places, and was claimed by others too.
        Claim handed = claim.handedToExecutor(keepsLeases(claim) ? leases.holdQueued(claim.live(), claim.claimedAt())
                : null);
        try {
            executor.execute(job(handed, done));
        } catch (RejectedExecutionException e) {
            handed.closeHold();
            job(claim, done).run(); // on this worker thread, which a forced shutdown interrupts
        } catch (RuntimeException | Error e) {
            handed.closeHold(); // never to run: its tasks come back when their leases expire
            throw e;
        }
        return claim.size();
    }

    /** The handling of {@code claim} as a job that reports its failures and then runs {@code done}. */
    private Runnable job(Claim claim, Runnable done) {
        return () -> {
            try {
                if (claim.hold() != null) {
                    claim.hold().movedTo(Thread.currentThread());
                }
                delivery.process(this, claim);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                LOG.warn("{}: acknowledging a batch on the executor failed; its tasks reappear when their leases expire: {}",
                        queue, e.toString());
                listener.crashed(queue, e);
            } finally {
                done.run();
            }
        };
    }

    /**
     * Whether the leases of {@code claim}'s tasks are kept by heartbeats while they are handled: at least once with
     * the lease heartbeat on, and at most once under an in-flight limit, whose places they hold.
     */
    private boolean keepsLeases(Claim claim) {
        return config.mode() == DeliveryMode.AT_MOST_ONCE ? limiter != null && limiter.holdsPlaces()
                : config.leaseHeartbeat();
    }

    /** The heartbeats of {@code claim}: those it was handed to the executor with, or new ones where it keeps any. */
    private LeaseKeeper.Hold holdOf(Claim claim) {
        return claim.hold() != null ? claim.hold() : keepsLeases(claim) ? leases.hold(claim.live(), claim.claimedAt()) : null;
    }

    /**
     * At least once or at most once: a claim committed on a connection that goes back to the pool at once. Under
     * {@link QueueLimits}, the claim takes what the limits allow in a transaction with the limits' bookkeeping.
     */
    private Claim claimOnItsOwn() throws SQLException {
        long claimedAt = System.nanoTime();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            if (limiter == null) {
                List<Task> tasks = claim(c, config.poll().batchSize());
                return new Claim(tasks.size(), delivery.toHandle(this, c, tasks), claimedAt);
            }
            return Jdbc.inTransaction(c, tx -> {
                ClaimLimiter.Allowance allowance = limiter.allow(tx, config.poll().batchSize());
                List<Task> tasks = allowance.tasks() == 0 ? List.of() : claimLimited(tx, allowance.tasks());
                List<Task> live = delivery.toHandle(this, tx, tasks);
                limiter.took(tx, allowance, tasks, live);
                return new Claim(tasks.size(), live, claimedAt);
            });
        }
    }

    /** How long the workers should wait for the queue's rate limit before they claim again; 0: no need to. */
    long nanosUntilNextToken() {
        return limiter == null ? 0 : limiter.nanosUntilNextToken();
    }

    /** {@link #releasePlaces(Connection, List)} on a connection of its own. */
    private void releasePlaces(List<Task> tasks) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            releasePlaces(c, tasks);
        } catch (SQLException e) {
            placesNotReleased(tasks, e);
        }
    }

    /** Gives back the in-flight places of a batch's answered tasks; a failure leaves them to expire with the lease. */
    private void releasePlaces(Connection c, List<Task> tasks) {
        if (limiter == null) {
            return;
        }
        try {
            limiter.release(c, tasks);
        } catch (SQLException e) {
            placesNotReleased(tasks, e);
        }
    }

    private void placesNotReleased(List<Task> tasks, SQLException e) {
        LOG.warn("{}: giving back the in-flight places of {} tasks failed; they come back when the leases expire: {}",
                queue, tasks.size(), e.toString());
    }

    /** At least once: handles leased tasks, then writes their answers on a connection taken for it. */
    void handleLeasedAndAcknowledge(Claim claim) throws SQLException, InterruptedException {
        Answers answers = handleLeased(claim);
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true); // a pool may hand out connections in a transaction (auto-commit=false)
            // The handler has returned, so the places are free. Given back after the answers instead, they could
            // be another claim's by then: a task handed back unstarted counts its attempt down again, and another
            // instance claiming it takes the place of the same (task, attempt), which this would then delete.
            releasePlaces(c, claim.live());
            write(c, answers);
        }
    }

    /**
     * Handles tasks an at-most-once claim has already deleted, and reports the answers. Under an in-flight limit
     * their places are kept by the lease heartbeat while the handler runs, and given back after.
     */
    void handleDeleted(Claim claim) throws InterruptedException {
        List<Task> tasks = claim.live();
        TaskBatch batch = new TaskBatch(queue, tasks, config.mode(), null, null);
        Throwable error;
        LeaseKeeper.Hold hold = holdOf(claim);
        try {
            error = handle(batch);
        } finally {
            if (hold != null) {
                hold.close();
                releasePlaces(tasks);
            }
        }
        // The tasks are already gone: a failure is reported, never retried.
        List<Task> finished = new ArrayList<>(tasks.size());
        answers(batch.results(), error).forEach((task, result) -> {
            if (result instanceof TaskResult.Fail fail) {
                listener.failed(queue, task, fail.error(), false);
            } else if (result instanceof TaskResult.Reenqueue) {
                LOG.warn("{}: task {} asked to be re-enqueued, but AT_MOST_ONCE deleted it when claimed", queue, task.id());
            } else {
                finished.add(task);
            }
        });
        listener.finished(queue, finished);
    }

    /**
     * Runs the handler on leased tasks, their leases kept by heartbeats meanwhile. After an interrupt
     * (a forced shutdown) the answers given so far are kept and the rest are to be handed back
     * without counting the attempt. A shutdown interrupts the worker threads only, never an executor's.
     */
    private Answers handleLeased(Claim claim) {
        List<Task> live = claim.live();
        LeaseKeeper.Hold hold = holdOf(claim);
        TaskBatch batch = new TaskBatch(queue, live, config.mode(), null, () -> leases.extend(live));
        try {
            Throwable error = handle(batch);
            if (!interrupting || claim.onExecutor()) {
                return new Answers(answers(batch.results(), error), List.of(), null);
            }
            // The shutdown interrupted the handler, which returned (or threw something else) instead of
            // InterruptedException: what it left unanswered was cut short, not finished, nor failed.
            return handedBack(batch, new InterruptedException("interrupted by the shutdown"));
        } catch (InterruptedException e) {
            return handedBack(batch, e);
        } finally {
            if (hold != null) {
                hold.close();
            }
        }
    }

    /** The answers given so far, and the tasks left unanswered to hand back without counting the attempt. */
    private static Answers handedBack(TaskBatch batch, InterruptedException interrupt) {
        Map<Task, TaskResult> answered = batch.results();
        List<Task> unanswered = new ArrayList<>();
        answered.entrySet().removeIf(entry -> entry.getValue() == null && unanswered.add(entry.getKey()));
        return new Answers(answered, unanswered, interrupt);
    }

    /**
     * A forced shutdown is about to interrupt the workers: from now on a leased batch's handler on a worker thread that
     * returns hands back what it left unanswered, as one that throws {@link InterruptedException} does.
     */
    void interrupting() {
        interrupting = true;
    }

    private void write(Connection c, Answers answers) throws SQLException, InterruptedException {
        acknowledge(c, answers.results());
        store.release(c, answers.unanswered());
        if (answers.interrupted() != null) {
            throw answers.interrupted();
        }
    }

    /**
     * Exactly once: the claim, the handler's work and the answers are one new transaction of
     * {@link #transactions}. When the handler fails, that transaction rolls back with the handler's
     * own work, and the failed attempt is recorded in a second one.
     */
    int exactlyOnce() throws SQLException, InterruptedException {
        AtomicReference<List<Task>> handedOver = new AtomicReference<>(); // the claimed tasks, once the handler has them
        Handled handled;
        try {
            handled = transactions.inNewTransaction(dataSource, c -> claimHandleAndAnswer(c, handedOver));
        } catch (RuntimeException | SQLException e) {
            List<Task> tasks = handedOver.get();
            if (tasks == null) {
                throw e;
            }
            if (!(e instanceof HandlerFailed) && Jdbc.connectionLost(e)) {
                // Lost while the answers were written or committed: the batch committed whole, or rolled back whole
                // and its tasks come back as they were. Neither is a failure of theirs; counted, a retry whose
                // commit had gone through counted twice, and a re-enqueue became a retry.
                LOG.warn("{}: the connection was lost while a batch of {} tasks was answered or committed; if it did not"
                        + " commit, its tasks come back as they were: {}", queue, tasks.size(), e.toString());
                return tasks.size();
            }
            // Rolled back after the handler had the batch: the handler failed, or the answers or the commit did (a
            // deferred constraint or a serialization failure at COMMIT, a rollback-only mark left by the handler's
            // own transactional code, a transaction its SQL left aborted). An attempt that failed, not a crash to
            // claim the batch again forever: the claim wrote nothing, so its attempt counts only here.
            return recordFailure(tasks, e instanceof HandlerFailed ? e.getCause() : e);
        }
        if (handled.outcome() != null) {
            handled.outcome().report();
        }
        return handled.claimed();
    }

    /** Records a failed attempt of {@code tasks}, whose transaction rolled back, in a transaction of its own. */
    private int recordFailure(List<Task> tasks, Throwable error) throws SQLException, InterruptedException {
        Map<Task, TaskResult> unanswered = new LinkedHashMap<>();
        tasks.forEach(task -> unanswered.put(task, null));
        Map<Task, TaskResult> failures = answers(unanswered, error);
        transactions.inNewTransaction(dataSource, c -> apply(c, failures)).report();
        return tasks.size();
    }

    private Handled claimHandleAndAnswer(Connection c, AtomicReference<List<Task>> handedOver)
            throws SQLException, InterruptedException {
        List<Task> tasks = claim(c);
        if (tasks.isEmpty()) {
            return new Handled(0, null);
        }
        List<Task> live = delivery.toHandle(this, c, tasks);
        TaskBatch batch = new TaskBatch(queue, live, config.mode(), c, null);
        handedOver.set(tasks);
        Throwable error = handle(batch);
        if (error != null) {
            throw new HandlerFailed(error);
        }
        Map<Task, TaskResult> results = answers(batch.results(), null);
        store.preferGenericPlans(c);
        return new Handled(tasks.size(), apply(c, results));
    }

    /** An exactly-once batch: how many tasks were claimed, and what their answers did (null: none claimed). */
    private record Handled(int claimed, Outcome outcome) {
    }

    /** Rolls an exactly-once batch's transaction back: its handler failed with the cause. */
    private static final class HandlerFailed extends RuntimeException {
        HandlerFailed(Throwable cause) {
            super("handler failed", cause, false, false);
        }
    }

    private List<Task> claim(Connection c) throws SQLException {
        return claim(c, config.poll().batchSize());
    }

    /** A claim under the queue's limits: the per-key claim where the limits have one. */
    private List<Task> claimLimited(Connection tx, int limit) throws SQLException {
        if (!limiter.limitsPerKey()) {
            return claim(tx, limit);
        }
        long start = System.nanoTime();
        List<Task> tasks = store.claimKeyLimited(tx, limit, config.leaseTimeout(), config.limits());
        listener.picked(queue, tasks, System.nanoTime() - start);
        return tasks;
    }

    private List<Task> claim(Connection c, int limit) throws SQLException {
        long start = System.nanoTime();
        List<Task> tasks = store.claim(c, limit, config.mode(), config.leaseTimeout());
        listener.picked(queue, tasks, System.nanoTime() - start);
        return tasks;
    }

    /**
     * Runs the handler; returns what it threw, or null. Interruption is passed on, and so are errors
     * of the JVM itself; any other Throwable (an AssertionError, a NoClassDefFoundError) fails the batch
     * instead of killing the worker. A StackOverflowError fails the batch too: it is the handler's own
     * (a payload nested too deep for it), its stack has unwound by here, and passed on it would kill a
     * worker on every claim of that task without the attempt being counted.
     */
    private Throwable handle(TaskBatch batch) throws InterruptedException {
        if (batch.tasks().isEmpty()) {
            return null;
        }
        listener.started(queue, batch.tasks());
        long start = System.nanoTime();
        try {
            handler.handle(batch);
            return null;
        } catch (StackOverflowError e) {
            LOG.debug("{}: handler failed", queue, e);
            return e;
        } catch (InterruptedException | VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            LOG.debug("{}: handler failed", queue, e);
            return e;
        } finally {
            listener.executed(queue, batch.tasks(), System.nanoTime() - start);
        }
    }

    /**
     * A task claimed more often than the policy allows has outlived its leases without an answer
     * (its consumer crashed each time, or the handler always overran the lease): dead-letter it
     * rather than hand it out forever.
     */
    List<Task> deadLetterExpired(Connection c, List<Task> tasks) throws SQLException {
        Map<Task, String> expired = new LinkedHashMap<>();
        List<Task> live = new ArrayList<>(tasks.size());
        for (Task task : tasks) {
            if (task.attempt() > config.retry().maxAttempts()) {
                expired.put(task, "claimed " + task.attempt() + " times without an answer: the lease expired each time");
            } else {
                live.add(task);
            }
        }
        if (!expired.isEmpty()) {
            store.deadLetter(c, expired);
            expired.forEach((task, error) -> listener.failed(queue, task, error, true));
        }
        return live;
    }

    /**
     * Writes a leased batch's answers and reports them. When every task finished, one delete whose
     * commit does not wait for a WAL flush: a finish lost with the server means the tasks run again,
     * which at least once allows. Otherwise one durable transaction, so that retries and dead letters
     * are recorded as they were decided.
     */
    private void acknowledge(Connection c, Map<Task, TaskResult> results) throws SQLException {
        if (results.isEmpty()) {
            return;
        }
        Outcome outcome;
        if (results.values().stream().allMatch(r -> r == TaskResult.finish())) {
            outcome = new Outcome();
            outcome.finished.addAll(results.keySet());
            store.finishWithoutFlush(c, outcome.finished);
        } else {
            outcome = Jdbc.inTransaction(c, tx -> apply(tx, results));
        }
        outcome.report();
    }

    private Outcome apply(Connection c, Map<Task, TaskResult> results) throws SQLException {
        Outcome outcome = new Outcome();
        results.forEach((task, result) -> {
            if (result instanceof TaskResult.Fail fail) {
                if (!fail.retryable() || config.retry().exhausted(task.attempt())) {
                    outcome.dead.put(task, fail.error());
                } else {
                    outcome.retries.put(task, config.retry().delayAfter(task.attempt()));
                    outcome.errors.put(task, fail.error());
                }
            } else if (result instanceof TaskResult.Reenqueue reenqueue) {
                outcome.reenqueues.put(task, reenqueue.delay());
            } else {
                outcome.finished.add(task);
            }
        });
        store.finish(c, outcome.finished);
        store.retry(c, outcome.retries, delivery);
        store.reenqueue(c, outcome.reenqueues);
        store.deadLetter(c, outcome.dead);
        return outcome;
    }

    /**
     * {@code given} (the handler's answers, null for a task it left unanswered) with every task answered: an
     * unanswered one finished when the handler returned, else failed with its error; where that is a
     * {@link DeadLetterException}, the tasks it names dead-lettered with its cause, and the others failed saying so,
     * not with their error.
     */
    private static Map<Task, TaskResult> answers(Map<Task, TaskResult> given, Throwable error) {
        given.replaceAll((task, answer) -> answer != null ? answer : unanswered(task, error));
        return given;
    }

    private static TaskResult unanswered(Task task, Throwable error) {
        if (error instanceof DeadLetterException named) {
            return named.tasks().contains(task) ? named.answer() : TaskResult.fail("the batch failed on task(s) "
                    + named.tasks().stream().map(Task::id).toList() + ", sent to the dead letters: " + named.getMessage());
        }
        return error == null ? TaskResult.finish() : TaskResult.fail(TaskBatch.describe(error));
    }

    /**
     * How many tasks a claim took, those of them to handle (the rest went to the dead letters), when it
     * started ({@link System#nanoTime()}): the lease runs from then, and whether an executor handles it.
     */
    /** @param hold the heartbeats a claim handed to an executor keeps from its claim on; null otherwise */
    record Claim(int size, List<Task> live, long claimedAt, boolean onExecutor, LeaseKeeper.Hold hold) {

        Claim(int size, List<Task> live, long claimedAt) {
            this(size, live, claimedAt, false, null);
        }

        Claim handedToExecutor(LeaseKeeper.Hold held) {
            return new Claim(size, live, claimedAt, true, held);
        }

        void closeHold() {
            if (hold != null) {
                hold.close();
            }
        }
    }

    /** A handler's answers for a leased batch, the tasks it left unanswered, and the interrupt that cut it short. */
    private record Answers(Map<Task, TaskResult> results, List<Task> unanswered, InterruptedException interrupted) {
    }

    /** What one acknowledgement did, reported to the listener once it is committed. */
    private final class Outcome {
        final List<Task> finished = new ArrayList<>();
        final Map<Task, Duration> retries = new LinkedHashMap<>();
        final Map<Task, String> errors = new LinkedHashMap<>();
        final Map<Task, Duration> reenqueues = new LinkedHashMap<>();
        final Map<Task, String> dead = new LinkedHashMap<>();

        void report() {
            if (!finished.isEmpty()) {
                listener.finished(queue, finished);
            }
            errors.forEach((task, error) -> listener.failed(queue, task, error, false));
            dead.forEach((task, error) -> listener.failed(queue, task, error, true));
            reenqueues.keySet().forEach(task -> listener.reenqueued(queue, task));
            // Written with now() of a transaction that began before this, so each is due by these times.
            long now = System.nanoTime();
            retries.values().forEach(delay -> comesDue.accept(now + delay.toNanos()));
            reenqueues.values().forEach(delay -> comesDue.accept(now + delay.toNanos()));
        }
    }
}
