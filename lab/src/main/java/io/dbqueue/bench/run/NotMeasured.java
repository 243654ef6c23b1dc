package io.dbqueue.bench.run;

import io.dbqueue.bench.workload.Cell;
import io.dbqueue.bench.workload.DriverName;

/** A cell that was skipped (its driver cannot run here) or failed, and why. */
public record NotMeasured(DriverName driver, String layout, int batchSize, int producers, int consumers, String status,
                          String reason) {

    public static NotMeasured of(Cell cell, String status, String reason) {
        return new NotMeasured(cell.driver(), cell.layout(), cell.batchSize(), cell.producers(), cell.consumers(),
                status, reason);
    }
}
