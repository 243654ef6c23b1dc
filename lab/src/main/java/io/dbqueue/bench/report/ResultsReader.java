package io.dbqueue.bench.report;

import io.dbqueue.bench.environment.Environment;
import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.NotMeasured;
import io.dbqueue.bench.run.Sample;
import io.dbqueue.bench.workload.Cell;
import io.dbqueue.bench.workload.DriverName;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a run's results.json back, of this schema version or an older one, keeping only what was
 * measured (the workload, the environment, each repetition's samples, what was not measured) and
 * deriving the cells' figures, the comparison and the verdict afresh, with today's statistics.
 */
public final class ResultsReader {

    static final String RESULTS = "results.json";
    /** The other lab commands' files, for saying what a directory holds instead. */
    private static final Map<String, String> OTHER_FILES = Map.of("scenarios.json", "bench scenario",
            "slow-handlers.json", "bench slow-handlers", "coalescing.json", "bench coalescing",
            "enqueue-methods.json", "bench enqueue-methods");

    /**
     * The files' JSON, reading a figure older files lack (a second's lag, a minute's WAL flushes) as 0 rather
     * than failing on it.
     */
    private static final ObjectMapper JSON = ReportWriter.JSON.rebuild()
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();

    private ResultsReader() {
    }

    /** The results in {@code dir}; an IllegalArgumentException with a one-line message when it holds none. */
    public static Results read(Path dir) {
        Path file = dir.resolve(RESULTS);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(dir + " has no " + RESULTS + other(dir).map(o -> " (it holds " + o
                    + ", which bench report does not read)").orElse("") + "; bench report reads the " + RESULTS
                    + " that bench run writes");
        }
        try {
            return results(JSON.readTree(file.toFile()));
        } catch (JacksonException | IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** The cell a run or a skipped cell names; before schema 3 its producers and consumers were the workload's. */
    private static Cell cell(JsonNode node, JsonNode workload) {
        return new Cell(DriverName.of(node.get("driver").asString()), node.get("layout").asString(), node.get("batch_size").asInt(),
                clients(node, workload, "producers"), clients(node, workload, "consumers"));
    }

    private static int clients(JsonNode node, JsonNode workload, String key) {
        JsonNode value = node.has(key) ? node.get(key) : workload.get(key);
        return value.isArray() ? value.get(0).asInt() : value.asInt();
    }

    private static Optional<String> other(Path dir) {
        return OTHER_FILES.entrySet().stream().filter(e -> Files.isRegularFile(dir.resolve(e.getKey()))).findFirst()
                .map(e -> e.getKey() + ", written by " + e.getValue());
    }

    @SuppressWarnings("unchecked")
    private static Results results(JsonNode json) {
        Map<String, Object> workload = JSON.treeToValue(json.get("workload"), Map.class);
        List<CellResult> runs = new ArrayList<>();
        for (JsonNode run : json.get("runs")) {
            List<Sample> samples = new ArrayList<>();
            run.get("samples").forEach(s -> samples.add(JSON.treeToValue(s, Sample.class)));
            runs.add(CellResult.fromSamples(cell(run, json.get("workload")), samples));
        }
        List<NotMeasured> skipped = new ArrayList<>();
        json.get("skipped").forEach(s -> skipped.add(NotMeasured.of(cell(s, json.get("workload")),
                s.get("status").asString(), s.get("reason").asString())));
        return Results.of(Instant.parse(json.get("started_at").asString()),
                Instant.parse(json.get("finished_at").asString()), json.get("interrupted").asBoolean(), workload,
                JSON.treeToValue(json.get("environment"), Environment.class), runs, skipped);
    }
}
