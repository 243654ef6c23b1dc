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

    /** The queue's id; for a queue not configured (a producer made by hand), its queue name. */
    String id(QueueLocation queue) {
        return ids.getOrDefault(queue, queue.queueName());
    }
}
