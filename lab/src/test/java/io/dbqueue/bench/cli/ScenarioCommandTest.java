package io.dbqueue.bench.cli;

import io.dbqueue.bench.report.ReportWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code bench scenario} end to end on small scenarios: in this JVM and in two consumer processes. */
class ScenarioCommandTest {

    @Test
    void runsEachModeAndFairnessSettingAndAccountsForEveryPlannedFailure(@TempDir Path dir) throws Exception {
        Path inProcess = dir.resolve("tenants.yaml");
        Files.writeString(inProcess, """
                name: tenants
                rate: 40
                workers: 4
                work: 2ms
                warmup: 1s
                duration: 2s
                tenants: 3
                noisy_share: 0.6
                fairness: [off, on]
                fairness_cap: 3
                failures: {share: 0.3, attempts: 2, backoff: 50ms}
                modes: [poll-100ms, notify]
                repeat: 1
                """);
        Path processes = dir.resolve("processes.yaml");
        Files.writeString(processes, """
                name: processes
                rate: 40
                workers: 4
                processes: 2
                warmup: 1s
                duration: 2s
                modes: [adaptive]
                repeat: 1
                """);
        Path out = dir.resolve("out");
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new String[]{"scenario", inProcess.toString(), processes.toString(), "--out",
                out.toString()}, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());

        JsonNode json = ReportWriter.JSON.readTree(out.resolve("scenarios.json").toFile());
        assertTrue(json.at("/environment/postgres/settings/fsync").isString(), "environment recorded");
        List<String> cells = new ArrayList<>();
        for (JsonNode scenario : json.get("samples")) {
            for (JsonNode cell : scenario.get("cells")) {
                cells.add(scenario.get("scenario").asString() + " " + cell.get("mode").asString() + " "
                        + cell.get("fairness").asString());
                for (JsonNode run : cell.get("runs")) {
                    assertTrue(run.get("throughput").asDouble() > 0, run.toString());
                    assertEquals(0, run.get("undrained").asLong(), run.toString());
                    JsonNode f = run.get("failures");
                    assertEquals(f.get("injected_failures").asLong(), f.get("failed_attempts").asLong(), run.toString());
                    assertEquals(f.get("injected_dead").asLong(), f.get("dead_lettered").asLong(), run.toString());
                }
            }
        }
        assertEquals(List.of("tenants poll-100ms OFF", "tenants notify OFF", "tenants poll-100ms ON", "tenants notify ON",
                "processes adaptive OFF"), cells);
        JsonNode failures = json.at("/samples/0/cells/0/runs/0/failures");
        assertTrue(failures.get("injected_failures").asLong() > 0 && failures.get("injected_dead").asLong() > 0,
                "the scenario planned failures and dead letters: " + failures);
        String report = Files.readString(out.resolve("scenarios.md"));
        assertTrue(report.contains("## Targets") && report.contains("## Which mode when") && report.contains("exact"),
                report);
        assertTrue(Files.size(out.resolve("charts/pickup-tenants.png")) > 0);
    }
}
