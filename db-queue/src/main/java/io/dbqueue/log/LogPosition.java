package io.dbqueue.log;

/** Where an appended message went: its partition and offset. */
public record LogPosition(int partition, long offset) {
}
