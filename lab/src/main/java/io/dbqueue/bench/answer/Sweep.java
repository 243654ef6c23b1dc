package io.dbqueue.bench.answer;

import java.util.List;
import java.util.OptionalDouble;

/**
 * A system's sweep of one shape: the offered rates it ran, lowest first, and why it stopped early
 * or was not run at all.
 *
 * @param note null, or why the sweep did not run (a broker that is not reachable) or ended with a failure
 */
public record Sweep(AnswerSystem system, AnswerShape shape, List<RateStep> steps, String note) {

    public Sweep {
        steps = List.copyOf(steps);
    }

    /**
     * The highest offered rate up to which every rate was kept up within {@code targetMs}, or 0 when
     * the first one was not. A rate that passes after a lower one failed does not count: a system
     * that misses the target at 2,000 messages/s cannot be said to hold it at 20,000.
     */
    public int capacity(int targetMs) {
        int capacity = 0;
        for (RateStep step : steps) {
            if (!step.meets(targetMs)) {
                break;
            }
            capacity = step.offered();
        }
        return capacity;
    }

    /**
     * The step whose runs fell on both sides of {@code targetMs} where the capacity is decided: the capacity's own
     * (its median met the target, a run did not) or the next one (its median missed it, a run met it). Null when
     * the runs there agreed, or ran once.
     */
    public RateStep straddled(int targetMs) {
        int capacity = capacity(targetMs);
        for (RateStep step : steps) {
            if (step.offered() < capacity) {
                continue;
            }
            if (step.keptUp() && step.repetitions() > 1 && step.p99Ms() != null && step.p99Ms().min() <= targetMs
                    && step.p99Ms().max() > targetMs) {
                return step;
            }
            if (step.offered() > capacity) {
                return null; // the first rate past the capacity decided it
            }
        }
        return null;
    }

    /** The most messages per second delivered at any offered rate (median of the repetitions). */
    public OptionalDouble saturation() {
        return steps.stream().mapToDouble(s -> s.delivered().median()).max();
    }

    /** Whether the sweep reached a rate the system did not keep up: then {@link #saturation()} is its limit. */
    public boolean saturated() {
        return steps.stream().anyMatch(s -> !s.keptUp());
    }

    /** The step at {@code rate} when the system kept it up, or null. */
    public RateStep keptUpAt(int rate) {
        return steps.stream().filter(s -> s.offered() == rate && s.keptUp()).findFirst().orElse(null);
    }

    public boolean measured() {
        return !steps.isEmpty();
    }
}
