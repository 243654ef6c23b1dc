package io.dbqueue.queue;

import java.util.List;
import java.util.Objects;

/**
 * Thrown by a handler to send {@link #tasks()} to the dead letters at once, with the cause as their last error, once
 * the batch's work is undone. Exactly once, the batch's transaction rolls back, the handler's own writes with it, as
 * for any failure; the batch's other unanswered tasks fail and are retried per the policy. At least once, the same
 * answers are given without a rollback ({@link TaskResult#deadLetter} is the way that needs no exception there).
 */
public final class DeadLetterException extends RuntimeException {

    private final List<Task> tasks;

    public DeadLetterException(List<Task> tasks, Throwable cause) {
        super(TaskBatch.describe(Objects.requireNonNull(cause, "cause")), cause);
        this.tasks = List.copyOf(tasks);
    }

    public DeadLetterException(Task task, Throwable cause) {
        this(List.of(task), cause);
    }

    /** The tasks no retry can fix. */
    public List<Task> tasks() {
        return tasks;
    }

    /** The answer each of {@link #tasks()} gets: the dead letters, with the cause as its last error. */
    public TaskResult answer() {
        return TaskResult.deadLetter(TaskBatch.describe(getCause()));
    }
}
