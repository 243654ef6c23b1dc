package io.dbqueue.stack.fault;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes {@code fault.json} (the results and the environment) and {@code fault.md} (a table) to a folder. */
final class FaultReport {

    private static final ObjectMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private FaultReport() {
    }

    /**
     * @param results  the fault scenarios' results, a row each
     * @param sections the other scenarios' outcomes by scenario id, a section each
     */
    static void write(Path dir, Map<String, Object> environment, FaultSettings settings, List<FaultResult> results,
                      Map<String, ScenarioOutcome> sections) throws IOException {
        Files.createDirectories(dir);
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("environment", environment);
        document.put("settings", settings);
        document.put("results", results.stream().map(FaultReport::asMap).toList());
        sections.forEach((id, outcome) -> document.put(id, asMap(outcome)));
        Files.writeString(dir.resolve("fault.json"), JSON.writeValueAsString(document));
        Files.writeString(dir.resolve("fault.md"), markdown(environment, settings, results, sections));
    }

    private static Map<String, Object> asMap(ScenarioOutcome outcome) {
        Map<String, Object> map = new LinkedHashMap<>(JSON.convertValue(outcome, Map.class));
        map.put("passed", outcome.passed());
        map.put("line", outcome.line());
        return map;
    }

    static String markdown(Map<String, Object> environment, FaultSettings settings, List<FaultResult> results,
                           Map<String, ScenarioOutcome> sections) {
        StringBuilder md = new StringBuilder("# Fault scenarios\n\n");
        if (!results.isEmpty()) {
            md.append(String.format(Locale.ROOT, "%s, %d s of load asked at %d messages/s, lease %d s, %s variant. Every message is sent with an idempotency key until it is answered.%n%n",
                    settings.mode(), settings.load().toSeconds(), settings.rate(), settings.lease().toSeconds(),
                    settings.quick() ? "shortened" : "full"));
            md.append("| scenario | result | load | sent | acknowledged | unanswered at first (stored) | processed | duplicates (bound)"
                    + " | duplicate effects | lost | faults | recovered within | drained after |\n");
            md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
            for (FaultResult r : results) {
                md.append(String.format(Locale.ROOT, "| %s | %s | %.0f s | %d | %d | %d (%d) | %d | %d%s | %s | %d | %d | %.1f s | %.1f s |%n",
                        r.scenario(), r.passed() ? "PASS" : "FAIL: " + String.join("; ", r.problems()), r.loadSeconds(), r.sent(),
                        r.acknowledged(), r.unanswered(), r.storedThoughUnanswered(), r.processed(), r.duplicates(),
                        r.duplicateBound() >= 0 ? " (" + r.duplicateBound() + ")" : "",
                        r.duplicateEffects() >= 0 ? Long.toString(r.duplicateEffects()) : "n/a", r.lost(), r.faults(),
                        r.recoverySeconds(), r.drainSeconds()));
            }
        }
        sections.forEach((id, outcome) -> md.append("\n## ").append(id).append("\n\n").append(outcome.markdown()));
        md.append("\n## Environment\n\n");
        environment.forEach((key, value) -> md.append("- ").append(key).append(": ").append(value).append('\n'));
        return md.toString();
    }
}
