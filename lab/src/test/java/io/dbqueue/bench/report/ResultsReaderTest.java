package io.dbqueue.bench.report;

import io.dbqueue.bench.ResultsSchema;
import io.dbqueue.bench.run.CellResult;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.run.Sample;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every committed run of {@code bench run} (docs/results), whatever its schema version, read back and
 * derived again with today's statistics, and valid against today's schema.
 */
class ResultsReaderTest {

    private static final Path COMMITTED = Path.of("..", "docs", "results");

    /** The committed runs of {@code bench run}: every results.json under docs/results but the answer's. */
    static Stream<Path> committedRuns() throws IOException {
        try (Stream<Path> files = Files.walk(COMMITTED)) {
            List<Path> runs = files.filter(f -> f.getFileName().toString().equals("results.json"))
                    .map(Path::getParent).filter(d -> !AnswerReportWriter.isAnswer(d)).sorted().toList();
            return runs.stream();
        }
    }

    @ParameterizedTest
    @MethodSource("committedRuns")
    void committedResultsAreReadAndTheirCellsDerivedFromTheSamples(Path dir, @TempDir Path out) throws Exception {
        JsonNode written = ReportWriter.JSON.readTree(dir.resolve("results.json").toFile());

        Results results = ResultsReader.read(dir);

        assertEquals(Results.SCHEMA_VERSION, results.schemaVersion());
        assertEquals(written.get("runs").size(), results.runs().size());
        for (CellResult cell : results.runs()) {
            JsonNode producers = written.at("/workload/producers");
            if (producers.isArray()) { // schema 3: the cell's own, one of the workload's list
                assertTrue(producers.valueStream().anyMatch(p -> p.asInt() == cell.producers()), cell.toString());
            } else {
                assertEquals(producers.asInt(), cell.producers(), "before schema 3, the workload's");
            }
            List<Double> p99s = cell.samples().stream().map(Sample::latencyMs).filter(Objects::nonNull)
                    .map(l -> l.p99()).toList();
            if (!p99s.isEmpty()) {
                assertEquals(Range.precise(p99s), cell.latencyMs().p99(), cell.cell().toString());
            }
        }
        Path rewritten = out.resolve("results.json");
        ReportWriter.JSON.writeValue(rewritten.toFile(), results);
        // the workload is carried as it was written, with its own version's keys; what is derived anew must match
        assertEquals(List.of(), ResultsSchema.errors(rewritten).stream().map(e -> e.getMessage())
                .filter(m -> !m.startsWith("$.workload")).toList(), "read back, the cells match the schema");
    }

    @Test
    void aDirectoryOfAnotherCommandIsNamedInOneLine(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("scenarios.json"), "{}");

        String message = assertThrows(IllegalArgumentException.class, () -> ResultsReader.read(dir)).getMessage();

        assertEquals(dir + " has no results.json (it holds scenarios.json, written by bench scenario, which bench"
                + " report does not read); bench report reads the results.json that bench run writes", message);
        assertTrue(message.lines().count() == 1);
    }
}
