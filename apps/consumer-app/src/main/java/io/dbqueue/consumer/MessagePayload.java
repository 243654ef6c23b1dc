package io.dbqueue.consumer;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** Reads the run id out of a queued message {@code {"message": ..., "testId": ...}}. */
final class MessagePayload {

    private final ObjectMapper json;

    MessagePayload(ObjectMapper json) {
        this.json = json;
    }

    /** The message's testId; IllegalArgumentException naming the problem if it has none. */
    long testId(String payload) {
        JsonNode testId;
        try {
            testId = json.readTree(payload).get("testId");
        } catch (JacksonException e) {
            throw new IllegalArgumentException("payload is not JSON: " + e.getOriginalMessage());
        }
        if (testId == null || !testId.isIntegralNumber()) {
            throw new IllegalArgumentException("payload has no integer testId");
        }
        if (!testId.canConvertToLong()) {
            throw new IllegalArgumentException("payload's testId " + testId + " is out of range");
        }
        return testId.asLong();
    }
}
