package io.dbqueue.spring;

import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** A consumer that records the payloads it handled and fails those starting with "fail". */
class RecordingConsumer implements QueueConsumer {

    private final String queueId;
    private final List<String> handled = new CopyOnWriteArrayList<>();
    private final Semaphore tasksHandled = new Semaphore(0);

    RecordingConsumer(String queueId) {
        this.queueId = queueId;
    }

    @Override
    public String queueId() {
        return queueId;
    }

    @Override
    public void handle(TaskBatch batch) throws Exception {
        for (Task task : batch.tasks()) {
            handled.add(task.payload());
            if (task.payload().startsWith("fail")) {
                batch.fail(task, "told to fail");
            }
        }
        tasksHandled.release(batch.tasks().size());
    }

    List<String> handled() {
        return handled;
    }

    /** Waits until {@code count} tasks were handled, failing after {@code timeout}. */
    void awaitHandled(int count, Duration timeout) throws InterruptedException {
        if (!tasksHandled.tryAcquire(count, timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("handled only " + handled.size() + " of " + count + " tasks within " + timeout
                    + ": " + handled);
        }
        tasksHandled.release(count);
    }
}
