package io.dbqueue.spring;

import io.dbqueue.QueueConfig;
import io.dbqueue.QueueLocation;

import java.util.Objects;

/**
 * One configured queue, validated: its id under {@code dbq.queues}, how it is consumed, whether its
 * workers run on virtual threads, and whether producers and consumers use LISTEN/NOTIFY wakeups.
 */
public record QueueDefinition(String id, QueueConfig config, boolean virtualThreads, boolean notifyWakeups) {

    public QueueDefinition {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(config, "config");
    }

    public QueueLocation location() {
        return config.location();
    }
}
