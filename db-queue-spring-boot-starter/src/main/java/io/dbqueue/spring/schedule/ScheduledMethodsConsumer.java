package io.dbqueue.spring.schedule;

import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import io.dbqueue.queue.TaskResult;
import io.dbqueue.spring.QueueConsumer;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The consumer of a queue that carries the ticks of {@link DbQueueScheduled} methods: each task's
 * payload names a schedule, whose method it calls. A method that throws fails its task (retried per
 * the queue's policy); a task naming no method of this application is dead-lettered.
 */
final class ScheduledMethodsConsumer implements QueueConsumer {

    private final String queueId;
    private final Map<String, ScheduledMethod> methods = new ConcurrentHashMap<>();

    ScheduledMethodsConsumer(String queueId) {
        this.queueId = queueId;
    }

    void add(ScheduledMethod method) {
        methods.put(method.name(), method);
    }

    @Override
    public String queueId() {
        return queueId;
    }

    @Override
    public void handle(TaskBatch batch) throws InterruptedException {
        for (Task task : batch.tasks()) {
            ScheduledMethod method = methods.get(task.payload());
            if (method == null) {
                batch.answer(task, TaskResult.deadLetter("no @DbQueueScheduled method of schedule '" + task.payload()
                        + "' in this application"));
                continue;
            }
            try {
                method.invoke();
                batch.answer(task, TaskResult.finish());
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                batch.answer(task, TaskResult.fail(TaskBatch.describe(e)));
            }
        }
    }

    @Override
    public String toString() {
        return "@DbQueueScheduled methods " + methods.keySet();
    }
}
