package io.dbqueue.spring;

import io.dbqueue.queue.CoalescingProducer;
import io.dbqueue.maintenance.VacuumPolicy;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueLocation;

import java.util.Objects;
import java.util.Optional;

/**
 * One configured queue, validated: its id under {@code dbq.queues}, how it is consumed, whether its
 * workers run on virtual threads, the
 * executor, if any, that handles its batches while the workers only claim, and how its coalescing
 * producer batches.
 */
public record QueueDefinition(String id, QueueConfig config, VacuumPolicy vacuum, boolean virtualThreads,
                              Optional<ExternalExecutor> executor, CoalescingProducer.Settings coalescing) {

    public QueueDefinition {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(vacuum, "vacuum");
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(coalescing, "coalescing");
    }


    /** Batches are handled on the {@link java.util.concurrent.Executor} bean {@code beanName}, at most {@code maxBatchesInFlight} at once. */
    public record ExternalExecutor(String beanName, int maxBatchesInFlight) {
    }

    public QueueLocation location() {
        return config.location();
    }
}
