package io.dbqueue.log;

import io.dbqueue.common.Checks;

/** A message to append: a key (may be null) that chooses the partition, and a payload (not null). */
public record LogMessage(String key, String payload) {

    public static LogMessage of(String payload) {
        return new LogMessage(null, payload);
    }

    /**
     * Throws {@link IllegalArgumentException} naming message {@code index} of an append to {@code topic} when it cannot
     * be stored: null, a null payload, or text PostgreSQL cannot store in its payload or key.
     */
    public static void checkAppendable(String topic, int index, LogMessage message) {
        if (message == null || message.payload() == null) {
            throw new IllegalArgumentException("append to " + topic + ": message " + index
                    + (message == null ? " is null" : " has a null payload"));
        }
        String payload = Checks.unstorable(message.payload());
        String key = message.key() == null ? null : Checks.unstorable(message.key());
        if (payload != null || key != null) {
            throw new IllegalArgumentException("append to " + topic + ": message " + index + "'s "
                    + (payload != null ? "payload " + payload : "key " + key));
        }
    }
}
