package io.dbqueue.bench.scenario;

import io.dbqueue.queue.BatchHandler;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.RetryPolicy;
import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import io.dbqueue.queue.TaskResult;

import java.time.Duration;
import java.util.List;

/**
 * The scenario's task handler and the listener that reports its outcomes: it stamps each batch's
 * claim, takes the scenario's work per task, and fails a task as many times as its payload plans
 * ({@link #payload}), reporting when the retry of a failed attempt comes due; finishes and failures are
 * reported by the queue's listener, after their commit.
 */
final class ScenarioHandler implements BatchHandler, QueueListener {

    private static final int PAYLOAD_BYTES = 100;

    private final Duration work;
    private final RetryPolicy retry; // the workers' own, without jitter: its delays are theirs
    private final TaskEvents events;
    private final BatchHandler perTask;

    ScenarioHandler(Duration work, RetryPolicy retry, TaskEvents events) {
        this.work = work;
        this.retry = retry;
        this.events = events;
        this.perTask = BatchHandler.perTask((task, batch) -> handle(task));
    }

    /** A task's payload: its tenant, the failures planned for it and its number, padded to 100 bytes. */
    static String payload(int tenant, int plannedFailures, long k) {
        String head = tenant + ":" + plannedFailures + ":" + k + ":";
        return head.length() >= PAYLOAD_BYTES ? head : head + "x".repeat(PAYLOAD_BYTES - head.length());
    }

    static int plannedFailures(String payload) {
        int first = payload.indexOf(':');
        return Integer.parseInt(payload.substring(first + 1, payload.indexOf(':', first + 1)));
    }

    @Override
    public void handle(TaskBatch batch) throws Exception {
        long claimed = TaskEvents.nowMicros();
        for (Task task : batch.tasks()) {
            events.claimed(task.id(), task.attempt(), claimed);
        }
        perTask.handle(batch);
    }

    private TaskResult handle(Task task) throws InterruptedException {
        if (!work.isZero()) {
            Thread.sleep(work.toMillis(), work.toNanosPart() % 1_000_000); // the work the task stands for
        }
        if (task.attempt() > plannedFailures(task.payload())) {
            return TaskResult.finish();
        }
        if (!retry.exhausted(task.attempt())) {
            // Stamped before the acknowledgement whose now() the retry is due after: never later than the row says.
            events.comesDue(task.id(), task.attempt() + 1,
                    TaskEvents.nowMicros() + retry.delayAfter(task.attempt()).toNanos() / 1000);
        }
        return TaskResult.fail("planned failure");
    }

    @Override
    public void finished(QueueLocation queue, List<Task> tasks) {
        long now = TaskEvents.nowMicros();
        tasks.forEach(task -> events.finished(task.id(), now));
    }

    @Override
    public void failed(QueueLocation queue, Task task, String error, boolean dead) {
        events.failed(task.id(), dead);
    }
}
