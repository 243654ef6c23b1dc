package io.dbqueue.log;

/** A message to append: a key (may be null) that chooses the partition, and a payload (not null). */
public record LogMessage(String key, String payload) {

    public static LogMessage of(String payload) {
        return new LogMessage(null, payload);
    }
}
