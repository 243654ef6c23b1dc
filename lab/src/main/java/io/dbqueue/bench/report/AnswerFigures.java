package io.dbqueue.bench.report;

import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.answer.AnswerShape;
import io.dbqueue.bench.answer.RateStep;
import io.dbqueue.bench.answer.Sweep;
import io.dbqueue.bench.run.Range;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/** How the answer's report states a sweep's figures: capacities at a target, saturation, and costs per message. */
final class AnswerFigures {

    private AnswerFigures() {
    }

    /**
     * The capacity at {@code targetMs} as text: "20,000", "under 1,000" when even the lowest rate
     * missed, "20,000 or more" when the sweep's highest rate still met it; "skipped" or "failed"
     * (the sweep's note says why), "-" when the run did not include it. A sweep that ended with a
     * failure or an interruption says so after the figure ("5,000, then failed at 10,000 messages/s"):
     * the rates it did not reach might have been held.
     */
    static String capacity(Sweep sweep, int targetMs) {
        if (sweep == null || !sweep.measured()) {
            return notMeasured(sweep);
        }
        int capacity = sweep.capacity(targetMs);
        // only where every rate reached met the target: else a rate below the break already decided the figure
        boolean allReachedMet = capacity == sweep.steps().get(sweep.steps().size() - 1).offered();
        String ended = sweep.note() == null || !allReachedMet ? "" : ", then " + sweep.note().replaceFirst(":.*", "");
        if (capacity == 0) {
            return "under " + number(sweep.shape().rates().get(0)) + ended;
        }
        boolean lastRate = capacity == sweep.shape().rates().get(sweep.shape().rates().size() - 1);
        return number(capacity) + (lastRate ? " or more" : "") + ended;
    }

    /** The most delivered per second, "or more" when the sweep never saturated it. */
    static String saturation(Sweep sweep) {
        if (sweep == null || !sweep.measured()) {
            return notMeasured(sweep);
        }
        return number(sweep.saturation().orElse(0)) + (sweep.saturated() ? "" : " or more");
    }

    private static String notMeasured(Sweep sweep) {
        if (sweep == null || sweep.note() == null) {
            return "-";
        }
        return sweep.note().startsWith("skipped") ? "skipped" : "failed";
    }

    /**
     * The rate at which a shape's costs are compared: the highest offered rate that every system of
     * the shape which kept up its lowest rate also kept up. CPU per message falls as the rate rises,
     * so costs taken at each system's own best rate would favour the faster one. 0 when there is none.
     */
    static int commonRate(AnswerResults results, AnswerShape shape) {
        List<Sweep> sweeps = shape.systems().stream()
                .map(s -> results.sweep(s, shape.messageSize(), shape.batchSize()))
                .filter(s -> s != null && s.keptUpAt(shape.rates().get(0)) != null).toList();
        int common = 0;
        for (int rate : shape.rates()) {
            if (sweeps.isEmpty() || sweeps.stream().anyMatch(s -> s.keptUpAt(rate) == null)) {
                break;
            }
            common = rate;
        }
        return common;
    }

    /**
     * "41 of 52": how many of the rates run more than once had repetitions within {@code pct} % of
     * their median ((max - min) / median) in the figure {@code range} picks.
     */
    static String within(List<Sweep> sweeps, Function<RateStep, Range> range, double pct) {
        List<Range> ranges = sweeps.stream().flatMap(s -> s.steps().stream()).filter(s -> s.repetitions() > 1)
                .map(range).filter(Objects::nonNull).toList();
        long within = ranges.stream().filter(r -> r.spreadPercent() <= pct).count();
        return within + " of " + ranges.size();
    }

    static String number(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }
}
