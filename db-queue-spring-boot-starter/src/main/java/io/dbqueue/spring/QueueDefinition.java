package io.dbqueue.spring;

import io.dbqueue.QueueConfig;
import io.dbqueue.QueueLocation;

import java.util.Objects;

/**
 * One configured queue, validated: its id under {@code dbq.queues}, how it is consumed, and whether
 * its workers run on virtual threads.
 */
public record QueueDefinition(String id, QueueConfig config, boolean virtualThreads) {

    public QueueDefinition {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(config, "config");
    }

    public QueueLocation location() {
        return config.location();
    }
}
