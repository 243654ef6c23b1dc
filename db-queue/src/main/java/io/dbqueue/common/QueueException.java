package io.dbqueue.common;

/** A database operation of the queue failed; the cause is the driver's exception. */
public class QueueException extends RuntimeException {

    public QueueException(String message, Throwable cause) {
        super(message, cause);
    }
}
