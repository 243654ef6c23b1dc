package io.dbqueue.bench.run;

import java.util.List;

/** The median of repeated values, with the smallest and the largest. */
public record Range(double median, double min, double max) {

    public static Range of(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Range(round(median), round(sorted.get(0)), round(sorted.get(n - 1)));
    }

    /** (max - min) / median in percent: how far repetitions of the same cell disagree. */
    public double spreadPercent() {
        return median == 0 ? 0 : round(100 * (max - min) / median);
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
