package io.dbqueue.bench.scenario;

import io.dbqueue.queue.Wakeup;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The scenario suite's benchmark targets, judged from the medians of a run of the suite. */
public final class ScenarioTargets {

    /** One target: what it asks, what was measured, and whether it was met ({@code null}: not measured in this run). */
    public record Target(String target, String measured, Boolean met) {
    }

    private ScenarioTargets() {
    }

    public static List<Target> judge(Map<String, ScenarioSummary> byName) {
        List<Target> targets = new ArrayList<>();
        targets.add(pickup(byName, "high_scale", 95, 5));
        targets.add(pickup(byName, "high_scale", 99, 10));
        targets.add(pickup(byName, "notify_latency", 95, 3));
        targets.add(lateness(byName, "delayed_due", "notify", 50));
        targets.add(lateness(byName, "delayed_due", "adaptive", 50));
        for (ScenarioSummary s : byName.values()) {
            if (!s.scenario().saturated()) {
                for (Fairness f : s.scenario().fairness()) {
                    adaptivePickup(s, f).ifPresent(targets::add);
                }
            }
        }
        for (ScenarioSummary s : byName.values()) {
            if (s.scenario().saturated()) {
                for (Fairness f : s.scenario().fairness()) {
                    throughputAgainstPoll(s, f, Wakeup.ADAPTIVE, 5).ifPresent(targets::add);
                    throughputAgainstPoll(s, f, Wakeup.NOTIFY, 10).ifPresent(targets::add);
                }
            }
        }
        for (ScenarioSummary s : byName.values()) {
            s.scenario().rateLimit().ifPresent(limit -> s.cells().forEach(c -> targets.add(startedRate(s, c, limit))));
        }
        ScenarioSummary noisy = byName.get("noisy_neighbor_saturated");
        if (noisy != null) {
            for (ScenarioCell on : noisy.cells(Fairness.ON)) {
                noisy.cell(on.mode(), Fairness.QUIET_ONLY).ifPresent(alone -> targets.add(fairness(on, alone)));
            }
        }
        return targets;
    }

    private static Target pickup(Map<String, ScenarioSummary> byName, String scenario, int percentile, double limitMs) {
        String target = "notify in " + scenario + ": pickup p" + percentile + " <= " + number(limitMs) + " ms";
        Optional<ScenarioCell> cell = Optional.ofNullable(byName.get(scenario)).flatMap(s -> s.cell("notify", Fairness.OFF));
        if (cell.isEmpty()) {
            return new Target(target, "not run", null);
        }
        double value = (percentile == 95 ? cell.get().pickupP95() : cell.get().pickupP99()).median();
        return new Target(target, number(value) + " ms", value <= limitMs);
    }

    private static Target lateness(Map<String, ScenarioSummary> byName, String scenario, String mode, double limitMs) {
        String target = mode + " in " + scenario + ": a delayed task or retry starts within " + number(limitMs)
                + " ms of its due time at p99";
        Optional<ScenarioCell> cell = Optional.ofNullable(byName.get(scenario)).flatMap(s -> s.cell(mode, Fairness.OFF));
        if (cell.isEmpty()) {
            return new Target(target, "not run", null);
        }
        double value = cell.get().latenessP99().median();
        return new Target(target, number(value) + " ms", value <= limitMs);
    }

    private static Optional<Target> adaptivePickup(ScenarioSummary s, Fairness f) {
        Optional<ScenarioCell> adaptive = s.cell("adaptive", f);
        Optional<ScenarioCell> notify = s.cell("notify", f);
        if (adaptive.isEmpty() || notify.isEmpty()) {
            return Optional.empty();
        }
        double a = adaptive.get().pickupP95().median();
        double n = notify.get().pickupP95().median();
        return Optional.of(new Target("adaptive in " + where(s, f) + ": pickup p95 within 20 % of notify's",
                number(a) + " ms vs " + number(n) + " ms (" + percent(a, n) + ")", a <= 1.2 * n));
    }

    private static Optional<Target> throughputAgainstPoll(ScenarioSummary s, Fairness f, Wakeup mode, int lossPercent) {
        String name = mode.name().toLowerCase(Locale.ROOT);
        Optional<ScenarioCell> cell = s.cell(name, f);
        Optional<ScenarioCell> bestPoll = s.cells(f).stream().filter(c -> c.mode().startsWith("poll"))
                .max((x, y) -> Double.compare(x.throughput().median(), y.throughput().median()));
        if (cell.isEmpty() || bestPoll.isEmpty()) {
            return Optional.empty();
        }
        double value = cell.get().throughput().median();
        double poll = bestPoll.get().throughput().median();
        return Optional.of(new Target(name + " in " + where(s, f) + ": throughput within " + lossPercent
                + " % of the best poll (" + bestPoll.get().mode() + ")", number(value) + " vs " + number(poll)
                + " tasks/s (" + percent(value, poll) + ")", value >= (1 - lossPercent / 100.0) * poll));
    }

    /** A rate-limited scenario: the consumer processes together start tasks at the limit, within 10 %. */
    private static Target startedRate(ScenarioSummary s, ScenarioCell c, Scenario.RateLimit limit) {
        double started = c.of(RunResult::startedRate).median();
        return new Target(c.mode() + " in " + where(s, c.fairness()) + ": started rate within 10 % of the limit",
                number(started) + " vs " + number(limit.perSecond()) + " tasks/s (" + percent(started, limit.perSecond())
                        + ")", Math.abs(started - limit.perSecond()) <= 0.1 * limit.perSecond());
    }

    private static Target fairness(ScenarioCell on, ScenarioCell alone) {
        double value = on.quietPickupP95().median();
        double baseline = alone.quietPickupP95().median();
        return new Target("noisy_neighbor_saturated, " + on.mode() + ", fairness on: quiet tenants' pickup p95 <= 2x"
                + " their p95 without the noisy tenant", number(value) + " ms vs " + number(baseline) + " ms alone",
                value <= 2 * baseline);
    }

    private static String where(ScenarioSummary s, Fairness f) {
        return s.scenario().name() + (f == Fairness.OFF ? "" : " (fairness " + f.label() + ")");
    }

    private static String percent(double value, double base) {
        return base == 0 ? "n/a" : String.format(Locale.ROOT, "%+.0f %%", 100 * (value - base) / base);
    }

    /** A figure as the reports print it: whole above 100, one decimal below. */
    public static String number(double value) {
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
