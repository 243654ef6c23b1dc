package io.dbqueue.consumer;

/** test-app answered that it will never store a report (a 4xx, e.g. a body too long). */
final class StatsRefusedException extends Exception {

    StatsRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
