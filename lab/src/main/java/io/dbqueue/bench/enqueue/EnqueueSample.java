package io.dbqueue.bench.enqueue;

import io.dbqueue.bench.run.Range;

import java.util.List;

/** Rows per second of one enqueue method at one batch size, over the repetitions. */
public record EnqueueSample(String method, int batchSize, Range rowsPerSecond, List<Double> runs) {
}
