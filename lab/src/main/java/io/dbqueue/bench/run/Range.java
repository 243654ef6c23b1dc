package io.dbqueue.bench.run;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The median of repeated values, with the smallest and the largest. The median of an even count is
 * the mean of the middle two, for every figure of a cell alike.
 */
public record Range(double median, double min, double max) {

    private static final String ONE_RUN = "one run";
    private static final double TENTHS = 10;
    /** Latencies keep their microseconds: tenths of a millisecond would round sub-millisecond ones away. */
    private static final double THOUSANDTHS = 1000;

    /** The range of {@code values}, rounded to tenths. */
    public static Range of(List<Double> values) {
        return of(values, TENTHS);
    }

    /** The range of {@code values}, rounded to thousandths (latencies in milliseconds). */
    public static Range precise(List<Double> values) {
        return of(values, THOUSANDTHS);
    }

    /** The range of one figure of {@code items}, rounded to tenths. */
    public static <T> Range over(List<T> items, ToDoubleFunction<T> figure) {
        return of(items.stream().map(figure::applyAsDouble).toList());
    }

    /** The range of a figure that some items may lack (null): over those that have it, or null when none has. */
    public static <T> Range overPresent(List<T> items, Function<T, Double> figure) {
        List<Double> present = present(items, figure);
        return present.isEmpty() ? null : of(present);
    }

    /** As {@link #overPresent}, rounded to thousandths: a latency compared with a target must not be rounded to it. */
    public static <T> Range preciseOverPresent(List<T> items, Function<T, Double> figure) {
        List<Double> present = present(items, figure);
        return present.isEmpty() ? null : precise(present);
    }

    private static <T> List<Double> present(List<T> items, Function<T, Double> figure) {
        return items.stream().map(figure).filter(Objects::nonNull).toList();
    }

    private static Range of(List<Double> values, double scale) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("a range needs at least one value");
        }
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Range(round(median, scale), round(sorted.get(0), scale), round(sorted.get(n - 1), scale));
    }

    /** (max - min) / median in percent: how far repetitions of the same cell disagree. */
    public double spreadPercent() {
        return median == 0 ? 0 : round(100 * (max - min) / median, TENTHS);
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

    private static double round(double value, double scale) {
        return Math.round(value * scale) / scale;
    }
}
