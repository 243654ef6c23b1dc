package io.dbqueue.bench.cli;

import io.dbqueue.bench.ResultsSchema;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.postgres.PostgresServer;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tiny workload end to end on PostgreSQL (embedded unless DBQ_JDBC_URL is set). */
class EndToEndTest {

    @Test
    void tinyWorkloadWritesResultsThatMatchTheSchemaAndAReport(@TempDir Path out) throws Exception {
        Path workload = Path.of(getClass().getResource("/tiny.yaml").toURI());
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new String[]{"run", "--workload", workload.toString(), "--out", out.toString()},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());

        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        Set<ValidationMessage> errors = ResultsSchema.errors(out.resolve("results.json"));
        assertTrue(errors.isEmpty(), "results.json does not match results.schema.json: " + errors);

        assertEquals("on", results.at("/environment/postgres/settings/fsync").asString());
        assertEquals(4, results.get("runs").size(), "2 layouts x 1 batch size x 2 drivers");
        for (JsonNode run : results.get("runs")) {
            assertEquals(2, run.get("samples").size());
            assertTrue(run.at("/throughput/median").asDouble() > 0, run.toString());
            assertTrue(run.at("/latency_ms/p99/median").asDouble() >= run.at("/latency_ms/p50/median").asDouble());
            assertTrue(run.at("/server/wal_bytes/median").asDouble() > 0, "WAL was written");
        }
        assertEquals(5, Files.readAllLines(out.resolve("results.csv")).size(), "header and one line per cell");
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("data:image/png;base64,"), "charts are embedded");
        String markdown = Files.readString(out.resolve("report.md"));
        assertTrue(markdown.contains("## Verdict"));
        assertTrue(results.at("/environment/postgres/non_default_settings").isArray());
        if (System.getenv(PostgresServer.JDBC_URL_ENV) == null) {
            assertFalse(markdown.contains("Not stock") || markdown.contains("Not durable"),
                    "the lab's own server is stock: " + markdown.lines().limit(5).toList());
        }
        try (var charts = Files.list(out.resolve("charts"))) {
            assertEquals(2 + 4 * 2, charts.count(), "a matrix chart per driver, two charts per cell");
        }
    }

    @ParameterizedTest
    @EnumSource(value = DeliveryMode.class, names = {"EXACTLY_ONCE", "AT_MOST_ONCE"})
    void everyDeliveryModeRunsOnBothInProcessDriversWithTheServerSettingsGiven(DeliveryMode mode, @TempDir Path out)
            throws Exception {
        Path workload = Path.of(getClass().getResource("/tiny.yaml").toURI());
        String modeName = Workload.modeName(mode);
        List<String> args = new ArrayList<>(List.of("run", "--workload", workload.toString(), "--out", out.toString(),
                "--layouts", "queue_tasks_2", "--repeat", "1", "--mode", modeName));
        boolean embedded = System.getenv(PostgresServer.JDBC_URL_ENV) == null;
        if (embedded) {
            args.addAll(List.of("--pg-setting", "wal_compression=on"));
        }
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(args.toArray(String[]::new), new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertEquals(0, code, err.toString());

        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertTrue(ResultsSchema.errors(out.resolve("results.json")).isEmpty());
        assertEquals(modeName, results.at("/workload/mode").asString());
        if (embedded) {
            assertEquals("pglz", results.at("/environment/postgres/settings/wal_compression").asString(),
                    "the setting was applied and recorded");
            assertEquals("Not stock: wal_compression = pglz (command line)",
                    Files.readAllLines(out.resolve("report.md")).get(2), "the report opens with it, under its title");
        }
        assertEquals(2, results.get("runs").size());
        for (JsonNode run : results.get("runs")) {
            assertTrue(run.at("/throughput/median").asDouble() > 0, run.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"notify", "adaptive"})
    void aNotifyingDirectDriverPicksUpATrickleWithoutWaitingForThePoll(String wakeup, @TempDir Path out)
            throws Exception {
        Path workload = Path.of(getClass().getResource("/tiny.yaml").toURI());
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new String[]{"run", "--workload", workload.toString(), "--out", out.toString(),
                "--drivers", "direct", "--layouts", "dbq_seq", "--batch-sizes", "1", "--repeat", "1",
                "--producer-rate", "200", "--wakeup", wakeup, "--consumer-batch", "50"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());

        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertTrue(ResultsSchema.errors(out.resolve("results.json")).isEmpty());
        assertEquals(wakeup, results.at("/workload/wakeup").asString());
        assertEquals(50, results.at("/workload/consumer_batch").asInt());
        JsonNode run = results.get("runs").get(0);
        assertTrue(run.at("/throughput/median").asDouble() > 0, run.toString());
        // polling alone (every 100 ms) would put the median pickup near 50 ms, plus the two commits
        assertTrue(run.at("/latency_ms/p50/median").asDouble() < 40, run.toString());
        // at a fixed rate the report gives the latency of the messages sent in the window, followed to delivery too
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("## Messages sent in the window"), report);
    }
}
