package io.dbqueue.producer;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** The experiment's message: {@code {"message": "Hello <timestamp>", "testId": <run id>}}. */
public record Message(
        @NotNull(message = "is missing")
        @Pattern(regexp = "[^\\x00]*", message = "contains a NUL character, which PostgreSQL text cannot store")
        // a lone surrogate (JSON "\\ud800" without its pair) is no character: stored as UTF-8 it would become '?'
        @Pattern(regexp = "\\P{Cs}*", message = "contains an unpaired UTF-16 surrogate, which is not a character")
        String message,
        @NotNull(message = "is missing")
        Long testId) {
}
