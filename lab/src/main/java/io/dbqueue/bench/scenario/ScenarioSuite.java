package io.dbqueue.bench.scenario;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs scenarios: per scenario, each repetition runs every fairness setting and mode once, in turn,
 * so that a slow minute of the machine falls on all of them alike.
 */
public final class ScenarioSuite {

    private final PostgresServer server;

    public ScenarioSuite(PostgresServer server) {
        this.server = server;
    }

    public List<ScenarioSummary> run(List<Scenario> scenarios, Consumer<String> progress) throws Exception {
        List<ScenarioSummary> summaries = new ArrayList<>();
        try (HikariDataSource admin = server.dataSource(2)) {
            for (Scenario scenario : scenarios) {
                summaries.add(run(scenario, admin, progress));
            }
            Schema.drop(admin, ScenarioRun.TABLE);
        }
        return summaries;
    }

    private ScenarioSummary run(Scenario scenario, HikariDataSource admin, Consumer<String> progress) throws Exception {
        Map<String, List<RunResult>> runs = new LinkedHashMap<>();
        for (int r = 1; r <= scenario.repeat(); r++) {
            for (Fairness fairness : scenario.fairness()) {
                for (WakeupSetting mode : scenario.modes()) {
                    RunResult result = new ScenarioRun(scenario, mode, fairness, server, admin).run();
                    runs.computeIfAbsent(mode.label() + "|" + fairness.name(), k -> new ArrayList<>()).add(result);
                    progress.accept(String.format(Locale.ROOT, "%s, %s%s, run %d/%d: %.0f tasks/s, pickup p50 %.1f"
                                    + " p95 %.1f p99 %.1f ms, end to end p99 %.1f ms%s", scenario.name(), mode.label(),
                            fairness == Fairness.OFF ? "" : ", fairness " + fairness.label(), r, scenario.repeat(),
                            result.throughput(), result.pickup().p50(), result.pickup().p95(), result.pickup().p99(),
                            result.endToEnd().p99(), result.undrained() > 0 ? ", " + result.undrained() + " NOT DRAINED" : ""));
                }
            }
        }
        List<ScenarioCell> cells = new ArrayList<>();
        runs.forEach((key, results) -> {
            String[] parts = key.split("\\|");
            cells.add(new ScenarioCell(parts[0], Fairness.valueOf(parts[1]), results));
        });
        return new ScenarioSummary(scenario, cells);
    }
}
