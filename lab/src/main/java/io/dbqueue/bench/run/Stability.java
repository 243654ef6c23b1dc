package io.dbqueue.bench.run;

import io.dbqueue.bench.metrics.SecondSample;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether throughput held over a long window: processed/s per full minute against the first
 * minute. Only for windows of at least two minutes.
 *
 * @param maxDeviationPct the largest |minute - first| / first in percent
 */
public record Stability(List<Double> perMinute, double firstMinute, double maxDeviationPct,
                        boolean withinTenPct) {

    static Stability of(List<SecondSample> series) {
        List<Double> minutes = new ArrayList<>();
        long count = 0;
        double minuteStart = 0;
        for (SecondSample s : series) {
            count += s.processed();
            if (s.second() - minuteStart >= 60 - 0.5) {
                minutes.add(Math.round(10.0 * count / (s.second() - minuteStart)) / 10.0);
                count = 0;
                minuteStart = s.second();
            }
        }
        if (minutes.size() < 2) {
            return null;
        }
        double first = minutes.get(0);
        double deviation = minutes.stream().mapToDouble(m -> Math.abs(m - first) / first * 100).max().orElse(0);
        deviation = Math.round(deviation * 10) / 10.0;
        return new Stability(minutes, first, deviation, deviation <= 10);
    }
}
