package io.dbqueue.bench.run;

import com.fasterxml.jackson.annotation.JsonValue;
import io.dbqueue.bench.metrics.LatencySummary;

import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * A cell's latency over its repetitions: each figure the median of the repetitions' own figures, with
 * their min and max. Only repetitions that measured latency count; {@link #NONE} when none did.
 */
public record LatencyRange(Range min, Range avg, Range p50, Range p95, Range p99, Range max) {

    private static final Range ZERO = new Range(0, 0, 0);
    public static final LatencyRange NONE = new LatencyRange(ZERO, ZERO, ZERO, ZERO, ZERO, ZERO);

    public static LatencyRange of(List<LatencySummary> repetitions) {
        List<LatencySummary> measured = repetitions.stream().filter(l -> l != null && l.measured()).toList();
        if (measured.isEmpty()) {
            return NONE;
        }
        return new LatencyRange(figure(measured, LatencySummary::min), figure(measured, LatencySummary::avg),
                figure(measured, LatencySummary::p50), figure(measured, LatencySummary::p95),
                figure(measured, LatencySummary::p99), figure(measured, LatencySummary::max));
    }

    private static Range figure(List<LatencySummary> measured, ToDoubleFunction<LatencySummary> figure) {
        return Range.precise(measured.stream().map(figure::applyAsDouble).toList());
    }

    public boolean measured() {
        return max.median() > 0;
    }

    /** The medians of the six figures. */
    public LatencySummary median() {
        return new LatencySummary(min.median(), avg.median(), p50.median(), p95.median(), p99.median(),
                max.median());
    }

    /** As results.json writes it: each figure's median, min and max, or null when nothing was measured. */
    @JsonValue
    Map<String, Range> json() {
        return measured() ? LatencySummary.figures(min, avg, p50, p95, p99, max) : null;
    }
}
