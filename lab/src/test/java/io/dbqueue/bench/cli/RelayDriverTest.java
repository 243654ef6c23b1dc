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

/**
 * The relay driver on the tiny workload, against the Kafka broker the lab starts: every record
 * written is relayed (the read rate is the write rate for one group), with its latency to Kafka's
 * acknowledgement, the topic's server figures and the broker's.
 */
class RelayDriverTest {

    @Test
    void aRelayCellCountsWhatKafkaAcknowledged(@TempDir Path out) throws Exception {
        Path workload = Path.of(getClass().getResource("/tiny.yaml").toURI());
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new String[]{"run", "--workload", workload.toString(), "--out", out.toString(),
                "--drivers", "log-relay", "--repeat", "1", "--duration", "2s", "--partitions", "2", "--groups", "1",
                "--read-batch", "50", "--producer-rate", "2000"}, new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertEquals(0, code, err.toString());

        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertTrue(ResultsSchema.errors(out.resolve("results.json")).isEmpty(), "results.json matches its schema");
        assertEquals(0, results.get("skipped").size(), results.get("skipped").toString());
        JsonNode run = results.get("runs").get(0);
        assertEquals("log-relay", run.get("driver").asString());
        double written = run.at("/enqueue_throughput/median").asDouble();
        double relayed = run.at("/throughput/median").asDouble();
        assertTrue(written > 1_000, run.toString());
        assertTrue(relayed > 0.8 * written && relayed < 1.2 * written, "one group relays every record: " + run);
        JsonNode sample = run.at("/samples/0");
        assertTrue(sample.at("/latency_ms/p99").asDouble() > 0, run.toString());
        assertTrue(sample.at("/server/wal_bytes_per_message").asDouble() > 0, "the topic's tables were probed: " + run);
        assertTrue(sample.at("/broker/cpu_micros_per_message").asDouble() > 0, "the Kafka broker's figures: " + run);
    }
}
