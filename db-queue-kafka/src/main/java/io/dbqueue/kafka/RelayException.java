package io.dbqueue.kafka;

/** Kafka refused or did not acknowledge a relayed record; the cause is Kafka's exception. */
public class RelayException extends RuntimeException {

    public RelayException(String message, Throwable cause) {
        super(message, cause);
    }
}
