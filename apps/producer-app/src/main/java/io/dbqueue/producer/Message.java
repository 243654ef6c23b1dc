package io.dbqueue.producer;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** The experiment's message: {@code {"message": "Hello <timestamp>", "testId": <run id>}}. */
public record Message(
        @NotNull(message = "is missing")
        @Pattern(regexp = "[^\\x00]*", message = "contains a NUL character, which PostgreSQL text cannot store")
        String message,
        @NotNull(message = "is missing")
        Long testId) {
}
