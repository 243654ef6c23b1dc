package io.dbqueue.spring;

/**
 * A consumer the starter cannot run as written: a {@code @DbQueueListener} or {@code @DbQueueScheduled} method whose
 * signature or attributes it cannot take, two consumers of one queue, a listener of a topic that is not configured.
 * Reported at start-up naming the method or bean ({@link InvalidConsumerFailureAnalyzer}).
 */
public class InvalidConsumerException extends IllegalStateException {

    public InvalidConsumerException(String message) {
        super(message);
    }

    public InvalidConsumerException(String message, Throwable cause) {
        super(message, cause);
    }
}
