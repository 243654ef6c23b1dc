package io.dbqueue;

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

/** One claim-handle-acknowledge cycle of a worker, for each delivery mode. */
final class BatchProcessor {

    private static final Logger LOG = LoggerFactory.getLogger(BatchProcessor.class);

    private final DataSource dataSource;
    private final QueueConfig config;
    private final BatchHandler handler;
    private final QueueListener listener;
    private final TaskStore store;
    private final QueueLocation queue;

    BatchProcessor(DataSource dataSource, QueueConfig config, BatchHandler handler, QueueListener listener) {
        this.dataSource = dataSource;
        this.config = config;
        this.handler = handler;
        this.listener = listener;
        this.queue = config.location();
        this.store = new TaskStore(queue);
    }

    /** Claims one batch and processes it. Returns the number of tasks claimed. */
    int runOnce() throws SQLException, InterruptedException {
        try (Connection c = dataSource.getConnection()) {
            return switch (config.mode()) {
                case AT_MOST_ONCE -> atMostOnce(c);
                case AT_LEAST_ONCE -> atLeastOnce(c);
                case EXACTLY_ONCE -> exactlyOnce(c);
            };
        }
    }

    private int atMostOnce(Connection c) throws SQLException, InterruptedException {
        c.setAutoCommit(true);
        List<Task> tasks = claim(c);
        if (tasks.isEmpty()) {
            return 0;
        }
        TaskBatch batch = new TaskBatch(queue, tasks, config.mode(), null);
        Throwable error = handle(batch);
        // The tasks are already gone: a failure is reported, never retried.
        List<Task> finished = new ArrayList<>(tasks.size());
        batch.results(fallback(error)).forEach((task, result) -> {
            if (result instanceof TaskResult.Fail fail) {
                listener.failed(queue, task, fail.error(), false);
            } else if (result instanceof TaskResult.Reenqueue) {
                LOG.warn("{}: task {} asked to be re-enqueued, but AT_MOST_ONCE deleted it when claimed", queue, task.id());
            } else {
                finished.add(task);
            }
        });
        listener.finished(queue, finished);
        return tasks.size();
    }

    private int atLeastOnce(Connection c) throws SQLException, InterruptedException {
        c.setAutoCommit(true);
        List<Task> tasks = claim(c);
        if (tasks.isEmpty()) {
            return 0;
        }
        List<Task> live = deadLetterExpired(c, tasks);
        TaskBatch batch = new TaskBatch(queue, live, config.mode(), null);
        try {
            Throwable error = handle(batch);
            acknowledge(c, batch.results(fallback(error)));
        } catch (InterruptedException e) {
            // Forced shutdown: keep the answers given so far, hand the rest back without counting the attempt.
            Map<Task, TaskResult> answered = batch.results(null);
            List<Task> unanswered = new ArrayList<>();
            answered.entrySet().removeIf(entry -> entry.getValue() == null && unanswered.add(entry.getKey()));
            acknowledge(c, answered);
            store.release(c, unanswered);
            throw e;
        }
        return tasks.size();
    }

    private int exactlyOnce(Connection c) throws SQLException, InterruptedException {
        c.setAutoCommit(false);
        try {
            List<Task> tasks = claim(c);
            if (tasks.isEmpty()) {
                c.commit();
                return 0;
            }
            List<Task> live = deadLetterExpired(c, tasks);
            TaskBatch batch = new TaskBatch(queue, live, config.mode(), c);
            Throwable error = handle(batch);
            if (error != null) {
                c.rollback();
                // The claim was rolled back with the handler's work; record the failed attempt on its own.
                Map<Task, TaskResult> failures = new LinkedHashMap<>();
                tasks.forEach(task -> failures.put(task, TaskResult.fail(TaskBatch.describe(error))));
                acknowledge(c, failures);
                return tasks.size();
            }
            Map<Task, TaskResult> results = batch.results(TaskResult.finish());
            Outcome outcome = apply(c, results);
            c.commit();
            outcome.report();
            return tasks.size();
        } catch (SQLException | RuntimeException | InterruptedException e) {
            Jdbc.rollbackQuietly(c, e);
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private List<Task> claim(Connection c) throws SQLException {
        long start = System.nanoTime();
        List<Task> tasks = store.claim(c, config.poll().batchSize(), config.mode(), config.leaseTimeout());
        listener.picked(queue, tasks, System.nanoTime() - start);
        return tasks;
    }

    /**
     * Runs the handler; returns what it threw, or null. Interruption is passed on, and so are errors
     * of the JVM itself; any other Throwable (an AssertionError, a NoClassDefFoundError) fails the batch
     * instead of killing the worker.
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
    private List<Task> deadLetterExpired(Connection c, List<Task> tasks) throws SQLException {
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

    /** Writes the answers in one transaction (a single statement when every task finished) and reports them. */
    private void acknowledge(Connection c, Map<Task, TaskResult> results) throws SQLException {
        if (results.isEmpty()) {
            return;
        }
        Outcome outcome = results.values().stream().allMatch(r -> r == TaskResult.finish())
                ? apply(c, results)
                : Jdbc.inTransaction(c, tx -> apply(tx, results));
        outcome.report();
    }

    private Outcome apply(Connection c, Map<Task, TaskResult> results) throws SQLException {
        Outcome outcome = new Outcome();
        results.forEach((task, result) -> {
            if (result instanceof TaskResult.Fail fail) {
                if (config.retry().exhausted(task.attempt())) {
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
        store.retry(c, outcome.retries);
        store.reenqueue(c, outcome.reenqueues);
        store.deadLetter(c, outcome.dead);
        return outcome;
    }

    private static TaskResult fallback(Throwable error) {
        return error == null ? TaskResult.finish() : TaskResult.fail(TaskBatch.describe(error));
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
        }
    }
}
