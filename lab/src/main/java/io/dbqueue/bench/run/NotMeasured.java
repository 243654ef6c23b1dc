package io.dbqueue.bench.run;

/** A cell that was skipped (its driver cannot run here) or failed, and why. */
public record NotMeasured(String driver, String layout, int batchSize, String status, String reason) {
}
