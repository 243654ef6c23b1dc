package io.dbqueue.bench.metrics;

import com.fasterxml.jackson.annotation.JsonValue;
import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * End-to-end latency in milliseconds. All zero when nothing was measured (no message processed, or
 * a driver that does not measure latency, as the pgbench drivers): results.json then says null.
 */
public record LatencySummary(double min, double avg, double p50, double p95, double p99, double max) {

    /** Nothing measured. */
    public static final LatencySummary NONE = new LatencySummary(0, 0, 0, 0, 0, 0);

    /** Whether any latency was recorded: a recorded one is never zero everywhere (the maximum is at least 1 us). */
    public boolean measured() {
        return max > 0;
    }

    /** As results.json writes it: the six figures, or null when nothing was measured. */
    @JsonValue
    Map<String, Double> json() {
        return measured() ? figures(min, avg, p50, p95, p99, max) : null;
    }

    /** Six latency figures by their names in results.json, in this order. */
    public static <T> Map<String, T> figures(T min, T avg, T p50, T p95, T p99, T max) {
        Map<String, T> figures = new LinkedHashMap<>();
        figures.put("min", min);
        figures.put("avg", avg);
        figures.put("p50", p50);
        figures.put("p95", p95);
        figures.put("p99", p99);
        figures.put("max", max);
        return figures;
    }

    public static LatencySummary of(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return NONE;
        }
        return new LatencySummary(ms(micros.getMinValue()), ms(micros.getMean()),
                ms(micros.getValueAtPercentile(50)), ms(micros.getValueAtPercentile(95)),
                ms(micros.getValueAtPercentile(99)), ms(micros.getMaxValue()));
    }

    private static double ms(double micros) {
        return Math.round(micros) / 1000.0;
    }
}
