package io.dbqueue.testapp;

/** The JSON body of every error answer: {@code {"error": "..."}}. */
public record ErrorBody(String error) {
}
