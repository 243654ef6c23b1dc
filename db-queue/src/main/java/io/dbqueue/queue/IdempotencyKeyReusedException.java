package io.dbqueue.queue;

/**
 * An idempotency key came again with another request fingerprint than the one it was first
 * enqueued with: the key is being reused for a different request. Nothing of the call was stored.
 */
public final class IdempotencyKeyReusedException extends RuntimeException {

    private final String key;
    private final long taskId;

    IdempotencyKeyReusedException(String key, long taskId) {
        super("idempotency key '" + key + "' was first enqueued with another request fingerprint (task " + taskId
                + "); a key must not be reused for a different request");
        this.key = key;
        this.taskId = taskId;
    }

    /** The reused key. */
    public String key() {
        return key;
    }

    /** The id of the task the key was first enqueued with. */
    public long taskId() {
        return taskId;
    }
}
