package io.dbqueue.bench.scenario;

import java.util.List;
import java.util.Optional;

/** A scenario as run: its definition and one cell per mode and fairness setting. */
public record ScenarioSummary(Scenario scenario, List<ScenarioCell> cells) {

    public ScenarioSummary {
        cells = List.copyOf(cells);
    }

    public Optional<ScenarioCell> cell(String mode, Fairness fairness) {
        return cells.stream().filter(c -> c.mode().equals(mode) && c.fairness() == fairness).findFirst();
    }

    /** The cells of one fairness setting, in mode order. */
    public List<ScenarioCell> cells(Fairness fairness) {
        return cells.stream().filter(c -> c.fairness() == fairness).toList();
    }
}
