package io.dbqueue.bench.run;

import java.util.List;
import java.util.Locale;

/** The median of repeated values, with the smallest and the largest. */
public record Range(double median, double min, double max) {

    private static final String ONE_RUN = "one run";

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

    /**
     * How the reports state this range over {@code repetitions} runs, in whole numbers with thousands
     * separators: "median of 3, range 1,200-1,350", or "one run" when there was a single run, whose
     * range would say nothing.
     */
    public String describe(int repetitions) {
        return repetitions <= 1 ? ONE_RUN : "median of " + repetitions + ", range " + minMax(repetitions);
    }

    /** A table's min-max column: "1,200-1,350", or "one run" when there was a single run. */
    public String minMax(int repetitions) {
        return repetitions <= 1 ? ONE_RUN : number(min) + "-" + number(max);
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
