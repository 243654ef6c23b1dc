package io.dbqueue.bench.run;

import io.dbqueue.bench.metrics.ClientStats;
import io.dbqueue.bench.metrics.Measurement;
import io.dbqueue.bench.metrics.ServerMinute;
import io.dbqueue.bench.metrics.ServerStats;

import java.util.List;

/**
 * One repetition of a cell: the measured window and the server's and client's figures for it (null
 * when unavailable), and the server's activity per full minute (empty when not read).
 */
public record Repetition(Measurement measurement, ServerStats server, ClientStats client,
                         List<ServerMinute> serverMinutes) {
}
