package io.dbqueue.bench.cli;

import io.dbqueue.bench.ResultsSchema;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.common.DeliveryMode;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ceilings measured by PostgreSQL's own client: a tiny matrix with the library, pgbench running
 * its statements and pgbench on the minimal queue, in every delivery mode, on a plain layout (its
 * claim runs as a simple-mode compound) and a partitioned one (prepared, in an explicit
 * transaction). Where pgbench is not installed, the cells must be skipped with a line saying how to
 * install it.
 */
class PgbenchDriversTest {

    @ParameterizedTest
    @EnumSource(DeliveryMode.class)
    void bothPgbenchDriversProcessMessagesBesideTheLibrary(DeliveryMode mode, @TempDir Path out) throws Exception {
        Path workload = Path.of(getClass().getResource("/tiny.yaml").toURI());
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new String[]{"run", "--workload", workload.toString(), "--out", out.toString(),
                        "--layouts", "dbq_seq,queue_tasks_4", "--repeat", "1", "--drivers", "direct,pgbench,pgbench-minimal",
                        "--mode", Workload.modeName(mode)},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        var errors = ResultsSchema.errors(out.resolve("results.json"));
        assertTrue(errors.isEmpty(), "results.json does not match the schema: " + errors);
        String verdict = results.at("/verdict").toString();

        if (!pgbenchInstalled()) {
            JsonNode skipped = results.get("skipped");
            assertTrue(skipped.size() >= 3, "pgbench on two layouts, pgbench-minimal at least once: " + skipped);
            for (JsonNode cell : skipped) {
                assertTrue(cell.get("driver").asString().startsWith("pgbench"), skipped.toString());
                assertEquals("skipped", cell.get("status").asString());
                assertTrue(cell.get("reason").asString().contains("apt-get install postgresql-client"), skipped.toString());
            }
            assertEquals(2, results.get("runs").size(), "the library's cells still ran");
            return;
        }
        assertEquals(0, results.get("skipped").size(), results.get("skipped").toString());
        assertEquals(2, count(results, "direct"), results.toString());
        assertEquals(2, count(results, "pgbench"), "pgbench on both layouts");
        assertTrue(count(results, "pgbench-minimal") >= 1, "pgbench-minimal ran");
        for (JsonNode run : results.get("runs")) {
            String driver = run.get("driver").asString();
            assertTrue(run.at("/throughput/median").asDouble() > 0, driver + " processed nothing");
            assertTrue(run.at("/enqueue_throughput/median").asDouble() > 0, driver + " enqueued nothing");
            assertTrue(run.at("/server/wal_bytes/median").asDouble() > 0, driver + ": the server's figures are read");
            if (driver.startsWith("pgbench")) {
                assertTrue(run.get("latency_ms").isNull(), driver + " measures no latency: " + run.get("latency_ms"));
            } else {
                assertTrue(run.at("/latency_ms/p99/median").asDouble() > 0, run.toString());
            }
        }
        assertTrue(verdict.contains("of pgbench running the library's own statements"), verdict);
        assertTrue(verdict.contains("of pgbench on the minimal queue"), verdict);
        assertEquals(2, results.at("/verdict/ceilings").size(), verdict);
        for (JsonNode ceiling : results.at("/verdict/ceilings")) {
            assertTrue(ceiling.get("direct_to_pgbench_pct").asDouble() > 0, verdict);
            assertTrue(ceiling.get("direct_to_minimal_pct").asDouble() > 0, "minimal pairs by batch size: " + verdict);
        }
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("## The library against the ceiling"), report);
        assertTrue(report.contains("no latency: this driver does not measure it"), report);
    }

    @Test
    void theStudysQueueAndEachSideAloneRunOnPgbench(@TempDir Path out) throws Exception {
        Assumptions.assumeTrue(pgbenchInstalled(), "pgbench is not installed (apt-get install postgresql-client)");
        JsonNode study = run(out.resolve("study"), "--drivers", "pgbench-study", "--batch-sizes", "1,10");
        assertEquals(2, count(study, "pgbench-study"), "once per batch size");
        for (JsonNode run : study.get("runs")) {
            assertTrue(run.at("/throughput/median").asDouble() > 0, "the study's queue processed nothing: " + run);
            assertTrue(run.at("/enqueue_throughput/median").asDouble() > 0, "the study's queue enqueued nothing: " + run);
        }
        JsonNode enqueueAlone = run(out.resolve("enqueue"), "--drivers", "pgbench-minimal", "--consumers", "0");
        assertTrue(enqueueAlone.at("/runs/0/enqueue_throughput/median").asDouble() > 0, enqueueAlone.toString());
        assertEquals(0, enqueueAlone.at("/runs/0/throughput/median").asDouble(), "nobody dequeues");
        JsonNode dequeueAlone = run(out.resolve("dequeue"), "--drivers", "pgbench-minimal", "--producers", "0",
                "--backlog", "20000", "--max-backlog", "100000");
        assertTrue(dequeueAlone.at("/runs/0/throughput/median").asDouble() > 0, dequeueAlone.toString());
        assertEquals(0, dequeueAlone.at("/runs/0/enqueue_throughput/median").asDouble(), "nobody enqueues");
    }

    /** One repetition of the tiny workload on one layout with {@code flags}; its results.json, checked against the schema. */
    private JsonNode run(Path out, String... flags) throws Exception {
        Path workload = Path.of(getClass().getResource("/tiny.yaml").toURI());
        List<String> args = new ArrayList<>(List.of("run", "--workload", workload.toString(), "--out", out.toString(),
                "--layouts", "dbq_seq", "--repeat", "1"));
        args.addAll(List.of(flags));
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(args.toArray(String[]::new), new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        var errors = ResultsSchema.errors(out.resolve("results.json"));
        assertTrue(errors.isEmpty(), "results.json does not match the schema: " + errors);
        assertEquals(0, results.get("skipped").size(), results.get("skipped").toString());
        return results;
    }

    private static long count(JsonNode results, String driver) {
        long n = 0;
        for (JsonNode run : results.get("runs")) {
            n += run.get("driver").asString().equals(driver) ? 1 : 0;
        }
        return n;
    }

    private static boolean pgbenchInstalled() {
        return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, "pgbench")));
    }
}
