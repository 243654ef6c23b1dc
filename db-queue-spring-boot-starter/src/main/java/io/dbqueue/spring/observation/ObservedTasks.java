package io.dbqueue.spring.observation;

import io.dbqueue.queue.BatchHandler;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import io.dbqueue.spring.QueueConsumerDecorator;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@code dbq.process} observation per task handled, a child of the {@code dbq.enqueue} observation whose trace
 * context the task's headers carry. The observations of a batch's tasks start before its handler runs and stop
 * after it returns; a batch of one task runs its handler in that task's observation's scope (so that the
 * handler's own spans are its children), a batch of several in none, since only one can be current. A handler
 * that throws marks every task's observation with the error; the tasks it answered as failed are not marked.
 */
final class ObservedTasks implements QueueConsumerDecorator {

    static final String NAME = "dbq.process";

    private final ObservationRegistry registry;
    private final QueueNames names;

    ObservedTasks(ObservationRegistry registry, QueueNames names) {
        this.registry = registry;
        this.names = names;
    }

    @Override
    public BatchHandler decorate(QueueConfig config, BatchHandler handler) {
        return batch -> handle(batch, handler);
    }

    private void handle(TaskBatch batch, BatchHandler handler) throws Exception {
        List<Observation> observations = new ArrayList<>(batch.tasks().size());
        for (Task task : batch.tasks()) {
            QueueLocation queue = batch.queue().table().queue(task.queueName());
            String id = names.id(queue);
            observations.add(Observation.createNotStarted(NAME, () -> new ProcessContext(task, batch), registry)
                    .contextualName(id + " process")
                    .lowCardinalityKeyValue("dbq.queue", id)
                    .lowCardinalityKeyValue("dbq.table", queue.table().name())
                    .highCardinalityKeyValue("dbq.task.id", Long.toString(task.id()))
                    .highCardinalityKeyValue("dbq.queue.name", queue.queueName())
                    .start());
        }
        try {
            if (observations.size() == 1) {
                try (Observation.Scope scope = observations.get(0).openScope()) {
                    handler.handle(batch);
                }
            } else {
                handler.handle(batch);
            }
        } catch (Exception | Error e) {
            observations.forEach(o -> o.error(e));
            throw e;
        } finally {
            observations.forEach(Observation::stop);
        }
    }
}
