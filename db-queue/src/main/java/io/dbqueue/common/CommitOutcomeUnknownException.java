package io.dbqueue.common;

/**
 * The connection was lost while a write was being committed, so whether it was stored is unknown:
 * the server may have committed it just before the connection went. Sending it again with the same
 * idempotency key is safe (a stored write answers with its first id); without a key it may store twice.
 * A write that fails before its commit was sent throws a plain {@link QueueException}: not stored.
 */
public class CommitOutcomeUnknownException extends QueueException {

    public CommitOutcomeUnknownException(String message, Throwable cause) {
        super(message, cause);
    }
}
