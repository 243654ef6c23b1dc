package io.dbqueue.producer;

/** The experiment's message: {@code {"message": "Hello <timestamp>", "testId": <run id>}}. */
public record Message(String message, long testId) {
}
