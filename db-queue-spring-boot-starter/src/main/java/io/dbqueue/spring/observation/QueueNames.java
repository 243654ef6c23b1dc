package io.dbqueue.spring.observation;

import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueLocation;

import java.util.HashMap;
import java.util.Map;

/** The {@code dbq.queues} id of each configured queue, for the observations' low-cardinality {@code dbq.queue} tag. */
final class QueueNames {

    private final Map<QueueLocation, String> ids = new HashMap<>();

    QueueNames(Map<String, QueueConfig> configs) {
        configs.forEach((id, config) -> ids.put(config.location(), id));
    }

    /** What a queue not configured is tagged as: its name, perhaps one of many made at run time, is no low-cardinality tag. */
    static final String OTHER = "other";

    /**
     * The queue's id; {@value #OTHER} for a queue not configured (a producer the application made by hand, for queue
     * names it makes up, such as one per tenant), whose name the observations carry as a high-cardinality value only.
     */
    String id(QueueLocation queue) {
        return ids.getOrDefault(queue, OTHER);
    }
}
