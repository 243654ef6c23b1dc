package io.dbqueue.bench.workload;

import java.time.Duration;

/** One cell of the matrix: a driver on a layout with a batch size, producer threads and consumer threads. */
public record Cell(DriverName driver, String layout, int batchSize, int producers, int consumers) {

    /** The layout of a broker's cell: it uses no queue table. */
    public static final String NO_LAYOUT = "none";

    public boolean usesTable() {
        return !layout.equals(NO_LAYOUT);
    }

    /** Recreating the table, CHECKPOINT and starting the load: the time a repetition takes beyond warm-up and measurement. */
    static final Duration SETUP = Duration.ofMillis(1500);

    @Override
    public String toString() {
        return driver + " " + layout + " batch " + batchSize + " producers " + producers + " consumers " + consumers;
    }
}
