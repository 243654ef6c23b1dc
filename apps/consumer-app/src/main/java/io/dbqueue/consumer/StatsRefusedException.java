package io.dbqueue.consumer;

/** test-app answered that it will never store a report (a 4xx, e.g. one naming a run it does not know). */
final class StatsRefusedException extends Exception {

    StatsRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
