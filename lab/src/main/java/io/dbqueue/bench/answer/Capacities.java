package io.dbqueue.bench.answer;

import java.util.Locale;

/** How reports state a sweep's figures: capacities at a target, saturation, and costs per message. */
public final class Capacities {

    private Capacities() {
    }

    /**
     * The capacity at {@code targetMs} as text: "20,000", "under 1,000" when even the lowest rate
     * missed, "20,000 or more" when the sweep's highest rate still met it, "not run" (with why).
     */
    public static String capacity(Sweep sweep, int targetMs) {
        if (sweep == null || !sweep.measured()) {
            return "not run";
        }
        int capacity = sweep.capacity(targetMs);
        if (capacity == 0) {
            return "under " + number(sweep.shape().rates().get(0));
        }
        boolean lastRate = capacity == sweep.shape().rates().get(sweep.shape().rates().size() - 1);
        return number(capacity) + (lastRate ? " or more" : "");
    }

    /** The most delivered per second, "or more" when the sweep never saturated it. */
    public static String saturation(Sweep sweep) {
        if (sweep == null || !sweep.measured()) {
            return "not run";
        }
        return number(sweep.saturation().orElse(0)) + (sweep.saturated() ? "" : " or more");
    }

    /** The step whose costs a table quotes: the highest rate the system kept up, or null. */
    public static RateStep costStep(Sweep sweep) {
        if (sweep == null) {
            return null;
        }
        RateStep kept = null;
        for (RateStep step : sweep.steps()) {
            if (step.keptUp()) {
                kept = step;
            }
        }
        return kept;
    }

    public static String number(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }
}
