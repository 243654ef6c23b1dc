package io.dbqueue.spring;

import io.dbqueue.queue.QueueGroup;

import java.util.List;
import java.util.Objects;

/**
 * One configured group of {@code dbq.groups}, validated: queues of one table consumed fairly by one
 * consumer's workers, which run as the first queue's definition says (threads, batch size, mode,
 * wakeup, ...).
 *
 * @param queueIds the member queues' ids under {@code dbq.queues}, in the order claims go round them
 */
public record QueueGroupDefinition(String id, List<String> queueIds, QueueGroup group, QueueDefinition workers) {

    public QueueGroupDefinition {
        Objects.requireNonNull(id, "id");
        queueIds = List.copyOf(queueIds);
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(workers, "workers");
    }
}
