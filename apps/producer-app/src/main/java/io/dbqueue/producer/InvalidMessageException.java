package io.dbqueue.producer;

/** A request body that is not a valid message or batch of messages; the message names what is wrong. */
public class InvalidMessageException extends RuntimeException {

    public InvalidMessageException(String message) {
        super(message);
    }
}
