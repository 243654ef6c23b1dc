package io.dbqueue.bench.scenario;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The suite's targets judged from medians: met, missed, or not run. */
class ScenarioTargetsTest {

    private static RunResult run(double throughput, double p95, double p99, double quietP95) {
        return new RunResult(throughput, 100, 100, new RunResult.Latency(1, p95, p99), new RunResult.Latency(1, 2, 3), new RunResult.Latency(0, 0, 0), 0,
                List.of(), quietP95, new RunResult.FailureCount(0, 0, 0, 0), 0, 0, 0, 10, 100, 5, throughput);
    }

    private static Scenario scenario(String name, boolean saturated, List<Fairness> fairness) {
        return new Scenario(name, "", 10, Duration.ofSeconds(1), Duration.ofSeconds(1), 10, 1, Duration.ZERO, Duration.ZERO, 1,
                fairness.size() > 1 ? 5 : 1, fairness.size() > 1 ? 0.9 : 0, Optional.empty(), Optional.empty(), saturated,
                List.of(WakeupSetting.parse("poll-100ms"), WakeupSetting.parse("notify"), WakeupSetting.parse("adaptive")),
                fairness, 6, 1, Optional.empty());
    }

    private static Map<String, Boolean> verdicts(List<ScenarioSummary> summaries) {
        Map<String, ScenarioSummary> byName = new LinkedHashMap<>();
        summaries.forEach(s -> byName.put(s.scenario().name(), s));
        Map<String, Boolean> verdicts = new LinkedHashMap<>();
        ScenarioTargets.judge(byName).forEach(t -> verdicts.put(t.target(), t.met()));
        return verdicts;
    }

    @Test
    void pickupLimitsAndTheAdaptiveComparison() {
        ScenarioSummary highScale = new ScenarioSummary(scenario("high_scale", false, List.of(Fairness.OFF)), List.of(
                new ScenarioCell("poll-100ms", Fairness.OFF, List.of(run(300, 90, 99, 0))),
                new ScenarioCell("notify", Fairness.OFF, List.of(run(300, 4, 6, 0), run(300, 5, 12, 0), run(300, 4.5, 11, 0))),
                new ScenarioCell("adaptive", Fairness.OFF, List.of(run(300, 5.5, 9, 0)))));
        Map<String, Boolean> v = verdicts(List.of(highScale));
        assertEquals(true, v.get("notify in high_scale: pickup p95 <= 5.0 ms"), "median 4.5");
        assertEquals(false, v.get("notify in high_scale: pickup p99 <= 10.0 ms"), "median 11");
        assertEquals(null, v.get("notify in notify_latency: pickup p95 <= 3.0 ms"), "not run");
        assertEquals(false, v.get("adaptive in high_scale: pickup p95 within 20 % of notify's"), "5.5 > 1.2 x 4.5");
    }

    @Test
    void latenessOfDelayedTasksAndRetries() {
        ScenarioSummary due = new ScenarioSummary(scenario("delayed_due", false, List.of(Fairness.OFF)), List.of(
                new ScenarioCell("notify", Fairness.OFF, List.of(late(30), late(60), late(40))),
                new ScenarioCell("adaptive", Fairness.OFF, List.of(late(70)))));
        Map<String, Boolean> v = verdicts(List.of(due));
        assertEquals(true, v.get("notify in delayed_due: a delayed task or retry starts within 50.0 ms of its due time"
                + " at p99"), "median 40");
        assertEquals(false, v.get("adaptive in delayed_due: a delayed task or retry starts within 50.0 ms of its due"
                + " time at p99"), "70");
    }

    private static RunResult late(double p99) {
        return new RunResult(10, 100, 100, new RunResult.Latency(1, 2, 3), new RunResult.Latency(1, 2, 3),
                new RunResult.Latency(1, 2, p99), 0, List.of(), 0, new RunResult.FailureCount(0, 0, 0, 0), 0, 0, 0, 10,
                100, 5, 10);
    }

    @Test
    void throughputUnderSaturationAgainstTheBestPollAndFairnessAgainstTheQuietBaseline() {
        ScenarioSummary over = new ScenarioSummary(scenario("noisy_neighbor_saturated", true,
                List.of(Fairness.QUIET_ONLY, Fairness.ON)), List.of(
                new ScenarioCell("poll-100ms", Fairness.ON, List.of(run(80, 90, 99, 50))),
                new ScenarioCell("notify", Fairness.ON, List.of(run(71, 4, 6, 7))),
                new ScenarioCell("adaptive", Fairness.ON, List.of(run(77, 4, 6, 9))),
                new ScenarioCell("notify", Fairness.QUIET_ONLY, List.of(run(10, 3, 4, 3))),
                new ScenarioCell("adaptive", Fairness.QUIET_ONLY, List.of(run(10, 4, 4, 4)))));
        Map<String, Boolean> v = verdicts(List.of(over));
        assertEquals(true, v.get("adaptive in noisy_neighbor_saturated (fairness on): throughput within 5 % of the best"
                + " poll (poll-100ms)"), "77 of 80");
        assertEquals(false, v.get("notify in noisy_neighbor_saturated (fairness on): throughput within 10 % of the best"
                + " poll (poll-100ms)"), "71 of 80");
        assertEquals(false, v.get("noisy_neighbor_saturated, notify, fairness on: quiet tenants' pickup p95 <= 2x their"
                + " p95 without the noisy tenant"), "7 > 2 x 3");
        assertEquals(false, v.get("noisy_neighbor_saturated, adaptive, fairness on: quiet tenants' pickup p95 <= 2x"
                + " their p95 without the noisy tenant"), "9 > 2 x 4");
    }

    @Test
    void aRateLimitedScenarioStartsTasksAtItsLimit() {
        Scenario limited = scenario("rate_limit_pressure", true, List.of(Fairness.OFF));
        limited = new Scenario(limited.name(), "", 50, limited.warmup(), limited.duration(), 10, 3, Duration.ZERO,
                Duration.ZERO, 1, 1,
                0, Optional.empty(), Optional.empty(), true, limited.modes(), limited.fairness(), 3, 1,
                Optional.of(new Scenario.RateLimit(60, 10)));
        ScenarioSummary summary = new ScenarioSummary(limited, List.of(
                new ScenarioCell("notify", Fairness.OFF, List.of(run(57, 4, 6, 0), run(58, 4, 6, 0), run(70, 4, 6, 0))),
                new ScenarioCell("adaptive", Fairness.OFF, List.of(run(67, 4, 6, 0)))));
        Map<String, Boolean> v = verdicts(List.of(summary));
        assertEquals(true, v.get("notify in rate_limit_pressure: started rate within 10 % of the limit"), "median 58 of 60");
        assertEquals(false, v.get("adaptive in rate_limit_pressure: started rate within 10 % of the limit"), "67 of 60");
    }
}
