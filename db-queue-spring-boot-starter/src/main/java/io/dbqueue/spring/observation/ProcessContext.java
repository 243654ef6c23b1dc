package io.dbqueue.spring.observation;

import io.dbqueue.queue.Task;
import io.dbqueue.queue.TaskBatch;
import io.micrometer.observation.transport.ReceiverContext;

/**
 * The context of a {@code dbq.process} observation, one per task handled: its carrier is the task, whose headers
 * a tracing handler's propagator reads the enqueue's trace context from.
 */
public final class ProcessContext extends ReceiverContext<Task> {

    private final TaskBatch batch;

    ProcessContext(Task task, TaskBatch batch) {
        super((carrier, key) -> carrier.headers().get(key));
        this.batch = batch;
        setCarrier(task);
        setRemoteServiceName("postgresql");
    }

    public Task task() {
        return getCarrier();
    }

    /** The batch the task was claimed in. */
    public TaskBatch batch() {
        return batch;
    }
}
