package io.dbqueue.producer;

/** The producer is shutting down and takes no more messages. */
public class ProducerClosedException extends RuntimeException {

    public ProducerClosedException() {
        super("producer is shutting down");
    }
}
