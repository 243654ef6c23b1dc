package io.dbqueue.spring.schedule;

import io.dbqueue.queue.BatchHandler;
import io.dbqueue.queue.TaskBatch;
import io.dbqueue.queue.TaskResult;
import io.dbqueue.spring.QueueConsumer;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The consumer of a queue that carries the ticks of {@link DbQueueScheduled} methods: each task's
 * payload names a schedule, whose method it calls. A method that throws fails its task (retried per
 * the queue's policy), and so does a task naming no method of this application: during a rolling
 * deploy another version may define it, and a retry may reach an instance of that version. Exactly once, a
 * failure rolls the batch back with the methods' writes, as the core's per-task handler does
 * ({@link BatchHandler#perTask}), rather than commit what a failed method wrote.
 */
final class ScheduledMethodsConsumer implements QueueConsumer {

    private final String queueId;
    private final Map<String, ScheduledMethod> methods = new ConcurrentHashMap<>();
    private final BatchHandler perTask = BatchHandler.perTask((task, batch) -> {
        ScheduledMethod method = methods.get(task.payload());
        if (method == null) {
            throw new IllegalStateException("no @DbQueueScheduled method of schedule '" + task.payload()
                    + "' in this application");
        }
        method.invoke();
        return TaskResult.finish();
    });

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
    public void handle(TaskBatch batch) throws Exception {
        perTask.handle(batch);
    }

    @Override
    public String toString() {
        return "@DbQueueScheduled methods " + methods.keySet();
    }
}
