package io.dbqueue.spring;

import java.util.function.Supplier;

/** A {@code dbq.*} property has a value the queue cannot work with; the message starts with the property's name. */
public class InvalidQueuePropertyException extends IllegalArgumentException {

    public InvalidQueuePropertyException(String message) {
        super(message);
    }

    /**
     * Runs {@code build} and turns the core's {@link IllegalArgumentException} into one naming {@code property}:
     * "batchSize must be between 1 and 10000, was 0" becomes "dbq.queues.main.batch-size must be between 1 and
     * 10000, was 0".
     */
    static <T> T check(String property, Supplier<T> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            String message = String.valueOf(e.getMessage());
            int must = message.indexOf(" must ");
            // The core starts its messages with the field's own name; swap it for the property when it does.
            boolean startsWithField = must > 0 && !message.substring(0, must).contains("'");
            InvalidQueuePropertyException failure = new InvalidQueuePropertyException(startsWithField
                    ? property + message.substring(must) : property + ": " + message);
            failure.initCause(e);
            throw failure;
        }
    }

    /** {@code value}, unless a property was set to nothing (an empty value binds an enum to null). */
    static <T> T required(String property, T value) {
        if (value == null) {
            throw new InvalidQueuePropertyException(property + " must not be empty");
        }
        return value;
    }
}
