package io.dbqueue.log;

import java.time.Instant;

/** A message as read from a partition. {@code appendedAt} is the appending transaction's start on the server's clock. */
public record LogRecord(String topic, int partition, long offset, String key, String payload, Instant appendedAt) {
}
