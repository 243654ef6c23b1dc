package io.dbqueue.spring.observation;

import io.dbqueue.queue.QueueLocation;
import io.micrometer.observation.transport.SenderContext;

import java.util.Map;

/**
 * The context of a {@code dbq.enqueue} observation: its carrier is the headers every task of the enqueue call gets,
 * so that a tracing handler's propagator writes the trace context into them.
 */
public final class EnqueueContext extends SenderContext<Map<String, String>> {

    private final QueueLocation queue;
    private final int tasks;

    EnqueueContext(QueueLocation queue, int tasks, Map<String, String> headers) {
        super(Map::put);
        this.queue = queue;
        this.tasks = tasks;
        setCarrier(headers);
        setRemoteServiceName("postgresql");
    }

    public QueueLocation queue() {
        return queue;
    }

    /** How many tasks the call enqueues. */
    public int tasks() {
        return tasks;
    }
}
