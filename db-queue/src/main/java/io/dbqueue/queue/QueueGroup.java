package io.dbqueue.queue;

import io.dbqueue.common.Checks;
import io.dbqueue.common.Identifiers;
import io.dbqueue.common.InvalidValueException;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * Queues of one table consumed fairly by one set of workers, e.g. one queue per tenant: each claim
 * starts at the next queue in turn and moves on past empty ones, so a queue with a backlog cannot
 * keep the others waiting behind it, and no queue is worked on by more than
 * {@code maxWorkersPerQueue} workers at once, so that some workers stay free for the other queues.
 * See {@link QueueWorkers#startGroup}.
 */
public record QueueGroup(QueueTable table, List<String> queueNames, int maxWorkersPerQueue) {

    public QueueGroup {
        Objects.requireNonNull(table, "table");
        queueNames = List.copyOf(queueNames);
        if (queueNames.isEmpty()) {
            throw new InvalidValueException("queueNames", "must hold at least one queue name", queueNames);
        }
        queueNames.forEach(name -> Identifiers.queueName("queueNames", name));
        if (new HashSet<>(queueNames).size() != queueNames.size()) {
            throw new InvalidValueException("queueNames", "must name each queue once", queueNames);
        }
        Checks.atLeast("maxWorkersPerQueue", maxWorkersPerQueue, 1);
    }

    public List<QueueLocation> locations() {
        return queueNames.stream().map(table::queue).toList();
    }
}
