package io.dbqueue.bench.cli;

import io.dbqueue.bench.ResultsSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The log driver on the tiny workload: a pub/sub cell reads like every other cell, with the fan-out in its rates. */
class LogDriverTest {

    @Test
    void aLogCellReportsTheWriteRateAndTheReadRateSummedOverItsGroups(@TempDir Path out) throws Exception {
        Path workload = Path.of(getClass().getResource("/tiny.yaml").toURI());
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new String[]{"run", "--workload", workload.toString(), "--out", out.toString(),
                "--drivers", "log", "--repeat", "1", "--duration", "2s", "--partitions", "2", "--groups", "3",
                "--read-batch", "50", "--producer-rate", "2000"}, new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertEquals(0, code, err.toString());

        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertTrue(ResultsSchema.errors(out.resolve("results.json")).isEmpty(), "results.json matches its schema");
        assertEquals(3, results.at("/workload/log/groups").asInt());
        JsonNode runs = results.get("runs");
        assertEquals(1, runs.size(), "one cell for the batch size, whatever the layouts");
        JsonNode run = runs.get(0);
        assertEquals("log", run.get("driver").asString());
        double written = run.at("/enqueue_throughput/median").asDouble();
        double read = run.at("/throughput/median").asDouble();
        // The rate itself depends on the machine (a loaded one wrote 775 of the 2,000 offered per second): the cell
        // must have written, and its groups' reads must add up to three times that.
        assertTrue(written > 100, run.toString());
        assertTrue(read > 2 * written && read < 4 * written, "three groups read every message: " + run);
        assertTrue(run.at("/server/wal_bytes/median").asDouble() > 0, "the topic's tables were probed: " + run);
        JsonNode sample = run.at("/samples/0");
        assertTrue(sample.at("/server/wal_bytes_per_message").asDouble() > 0, run.toString());
        if (!sample.at("/server/cpu_micros_per_message").isNull()) { // a server on this machine
            assertTrue(sample.at("/server/cpu_micros_per_message").asDouble() > 0, run.toString());
        }
        assertTrue(sample.at("/client/cpu_micros_per_message").asDouble() > 0, run.toString());
    }
}
