package io.dbqueue.bench.metrics;

import org.HdrHistogram.Histogram;

/** End-to-end latency in milliseconds. All zero when nothing was measured. */
public record LatencySummary(double min, double avg, double p50, double p95, double p99, double max) {

    public static LatencySummary of(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return new LatencySummary(0, 0, 0, 0, 0, 0);
        }
        return new LatencySummary(ms(micros.getMinValue()), ms(micros.getMean()),
                ms(micros.getValueAtPercentile(50)), ms(micros.getValueAtPercentile(95)),
                ms(micros.getValueAtPercentile(99)), ms(micros.getMaxValue()));
    }

    private static double ms(double micros) {
        return Math.round(micros) / 1000.0;
    }
}
