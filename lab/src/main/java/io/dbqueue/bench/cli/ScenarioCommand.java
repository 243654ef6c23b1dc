package io.dbqueue.bench.cli;

import io.dbqueue.bench.ProjectDir;
import io.dbqueue.bench.environment.EnvironmentProbe;
import io.dbqueue.bench.report.ScenarioReportWriter;
import io.dbqueue.bench.scenario.Scenario;
import io.dbqueue.bench.scenario.ScenarioFile;
import io.dbqueue.bench.scenario.ScenarioSuite;
import io.dbqueue.bench.scenario.ScenarioSummary;
import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.postgres.ServerProfile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code bench scenario}: pickup latency and throughput of each wakeup mode under the shipped shapes of load. */
@Command(name = "scenario", mixinStandardHelpOptions = true,
        description = "Runs scenarios (shipped: notify_latency, steady_under, steady_balanced, steady_over, burst,"
                + " noisy_neighbor, noisy_neighbor_saturated, rate_limit_pressure, high_scale, multi_process, delayed_due; or all; or"
                + " a scenario file ending in .yaml, keys as in lab/src/main/resources/scenarios) in every wakeup mode"
                + " they list, on a stock server. Writes scenarios.json, scenarios.md and charts.")
final class ScenarioCommand implements Callable<Integer> {

    @Mixin
    ServerOption serverOption;

    @Parameters(arity = "1..*", paramLabel = "SCENARIO", description = "Scenario names, all, or .yaml files.")
    List<String> names;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: results/<timestamp>-scenarios).")
    Path out;

    @Option(names = "--repeat", paramLabel = "N", description = "Repetitions instead of each scenario's own (3 in the shipped ones).")
    Integer repeat;

    @Override
    public Integer call() throws Exception {
        List<Scenario> scenarios = (names.contains("all") ? ScenarioFile.NAMES : names).stream()
                .map(ScenarioFile::load).map(this::withRepeat).toList();
        Path dir = OutputDir.of(out, "-scenarios");
        Instant started = Instant.now();
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("scenarios", scenarios.stream().map(Scenario::name).toList());
        settings.put("layout", "dbq_seq");
        try (PostgresServer server = serverOption.connect(ServerProfile.STOCK)) {
            List<ScenarioSummary> summaries = new ScenarioSuite(server).run(scenarios,
                    line -> System.out.println("bench: " + line));
            ScenarioReportWriter.write(dir, started, settings, EnvironmentProbe.capture(server, ProjectDir.get(),
                    serverOption.settings.keySet()), summaries);
        }
        System.out.println("bench: wrote " + dir.resolve("scenarios.md"));
        return 0;
    }

    private Scenario withRepeat(Scenario s) {
        if (repeat == null) {
            return s;
        }
        if (repeat < 1 || repeat > 100) {
            throw new IllegalArgumentException("--repeat must be between 1 and 100, was " + repeat);
        }
        return s.withRepeat(repeat);
    }
}
