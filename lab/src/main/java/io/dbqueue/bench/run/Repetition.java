package io.dbqueue.bench.run;

import io.dbqueue.bench.metrics.ClientStats;
import io.dbqueue.bench.metrics.Measurement;
import io.dbqueue.bench.metrics.ServerStats;

/** One repetition of a cell: the measured window and the server's and client's figures for it (null when unavailable). */
public record Repetition(Measurement measurement, ServerStats server, ClientStats client) {
}
