package io.dbqueue.queue;

import io.dbqueue.common.DeliveryMode;
import java.sql.Connection;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/** The tasks of one claim, and the handler's answers for them. Used by one worker thread. */
public final class TaskBatch {

    private final QueueLocation queue;
    private final List<Task> tasks;
    private final DeliveryMode mode;
    private final Connection connection;
    private final IntSupplier heartbeat;
    private final Map<Long, TaskResult> answers = new LinkedHashMap<>();

    /** @param heartbeat extends the batch's leases and counts the tasks still held; null where nothing is leased */
    TaskBatch(QueueLocation queue, List<Task> tasks, DeliveryMode mode, Connection connection, IntSupplier heartbeat) {
        this.queue = queue;
        this.tasks = Collections.unmodifiableList(tasks);
        this.mode = mode;
        this.connection = connection;
        this.heartbeat = heartbeat;
    }

    public QueueLocation queue() {
        return queue;
    }

    /** The claimed tasks in claim order (FIFO for the layout's order). */
    public List<Task> tasks() {
        return tasks;
    }

    public DeliveryMode mode() {
        return mode;
    }

    /**
     * The connection whose transaction claims and finishes this batch; SQL the handler runs on it
     * commits or rolls back together with the batch. Only in {@link DeliveryMode#EXACTLY_ONCE}; the
     * handler must not commit, roll back or close it.
     */
    public Connection connection() {
        if (connection == null) {
            throw new IllegalStateException("a batch has a transaction connection only in EXACTLY_ONCE mode, this is "
                    + mode);
        }
        return connection;
    }

    /**
     * Extends the leases of this batch's tasks now and returns how many of them the batch still
     * holds; fewer than {@code tasks().size()} means a lease expired earlier and another consumer may
     * be running that task. The workers do this by themselves every third of the lease while the
     * handler runs (unless {@link QueueConfig#leaseHeartbeat()} is off); call it in a long handler
     * that wants to know, or before an effect that must not run twice. At most once and exactly once
     * nothing can be handed out while the handler runs, and it returns {@code tasks().size()}.
     *
     * @throws io.dbqueue.common.QueueException if the database cannot be reached
     */
    public int heartbeat() {
        return heartbeat == null ? tasks.size() : heartbeat.getAsInt();
    }

    public void finish(Task task) {
        answer(task, TaskResult.finish());
    }

    public void fail(Task task, String error) {
        answer(task, TaskResult.fail(error));
    }

    public void reenqueue(Task task, Duration delay) {
        answer(task, TaskResult.reenqueue(delay));
    }

    /** Records the answer for {@code task}; a later answer for the same task replaces an earlier one. */
    public void answer(Task task, TaskResult result) {
        if (!tasks.contains(task)) {
            throw new IllegalArgumentException("task " + task.id() + " is not part of this batch");
        }
        answers.put(task.id(), result);
    }

    /** Every task with its answer, in batch order; null for a task not answered. */
    Map<Task, TaskResult> results() {
        Map<Task, TaskResult> results = new LinkedHashMap<>();
        for (Task task : tasks) {
            results.put(task, answers.get(task.id()));
        }
        return results;
    }

    /**
     * For a handler that answers its tasks one by one, before it answers {@code failure} as a task's: throws it, as
     * the batch's, while the thread is interrupted. A client that turns an interrupt into its own exception and sets
     * the flag again (the JDK's HTTP client, a pool) fails at once on every task after it; answered one by one, each
     * used up an attempt, and after a forced shutdown's interrupt could go to the dead letters. Thrown, the batch's
     * unanswered tasks are handed back uncounted when a shutdown interrupted the worker, and fail as the batch's
     * otherwise (an interrupt of the application's own, on its executor), as any failure a handler throws.
     */
    public static void throwIfInterrupted(Exception failure) throws Exception {
        if (Thread.currentThread().isInterrupted()) {
            throw failure;
        }
    }

    /** How a failure is written as a task's last error: the exception's simple name and message. */
    public static String describe(Throwable e) {
        String message = e.getMessage();
        return message == null ? e.getClass().getName() : e.getClass().getSimpleName() + ": " + message;
    }
}
