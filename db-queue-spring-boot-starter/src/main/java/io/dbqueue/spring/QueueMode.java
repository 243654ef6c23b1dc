package io.dbqueue.spring;

import io.dbqueue.common.DeliveryMode;

/** {@code dbq.queues.<id>.mode}: the core's three delivery modes, and at-least-once with the batches on an executor bean. */
public enum QueueMode {

    /** Claim with a lease, handle, then delete: a task whose consumer dies is handed out again. */
    AT_LEAST_ONCE(DeliveryMode.AT_LEAST_ONCE),
    /** Claim, handle and delete in one transaction, which the handler's own writes join. */
    EXACTLY_ONCE(DeliveryMode.EXACTLY_ONCE),
    /** Delete on claim: a task whose consumer dies is lost. */
    AT_MOST_ONCE(DeliveryMode.AT_MOST_ONCE),
    /** At least once, the worker threads only claiming and the {@code executor} bean handling the batches. */
    EXTERNAL_EXECUTOR(DeliveryMode.AT_LEAST_ONCE);

    private final DeliveryMode deliveryMode;

    QueueMode(DeliveryMode deliveryMode) {
        this.deliveryMode = deliveryMode;
    }

    public DeliveryMode deliveryMode() {
        return deliveryMode;
    }
}
