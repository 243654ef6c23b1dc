package io.dbqueue.spring;

/** A configured queue's table (or its dead-letter table) does not exist, and the starter is not to create it. */
final class MissingQueueTableException extends InvalidQueuePropertyException {

    MissingQueueTableException(String message) {
        super(message);
    }
}
