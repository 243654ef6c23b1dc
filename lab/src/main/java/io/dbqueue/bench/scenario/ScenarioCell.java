package io.dbqueue.bench.scenario;

import io.dbqueue.bench.run.Range;

import java.util.List;
import java.util.function.ToDoubleFunction;

/** One mode and fairness setting of a scenario over its repetitions: medians with min and max, and every run. */
public record ScenarioCell(String mode, Fairness fairness, List<RunResult> runs) {

    public ScenarioCell {
        runs = List.copyOf(runs);
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("a cell needs at least one run");
        }
    }

    public Range of(ToDoubleFunction<RunResult> figure) {
        return Range.of(runs.stream().map(figure::applyAsDouble).toList());
    }

    public Range throughput() {
        return of(RunResult::throughput);
    }

    public Range pickupP95() {
        return of(r -> r.pickup().p95());
    }

    public Range pickupP99() {
        return of(r -> r.pickup().p99());
    }

    public Range latenessP99() {
        return of(r -> r.lateness().p99());
    }

    public Range quietPickupP95() {
        return of(RunResult::quietPickupP95);
    }

    /** Whether every run counted exactly the failures it planned and drained every task. */
    public boolean accountedFor() {
        return runs.stream().allMatch(r -> r.failures().matches() && r.undrained() == 0);
    }

    public String label() {
        return fairness == Fairness.OFF ? mode : mode + ", fairness " + fairness.label();
    }
}
