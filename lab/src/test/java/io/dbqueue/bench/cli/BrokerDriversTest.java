package io.dbqueue.bench.cli;

import io.dbqueue.bench.ResultsSchema;
import io.dbqueue.bench.driver.Driver;
import io.dbqueue.bench.driver.Drivers;
import io.dbqueue.bench.metrics.BrokerProcess;
import io.dbqueue.bench.workload.DriverName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The broker drivers run the tiny workload on the machine's RabbitMQ and NATS; without the broker they are skipped. */
class BrokerDriversTest {

    @ParameterizedTest
    @ValueSource(strings = {"rabbitmq", "rabbitmq-quorum", "nats"})
    void aReachableBrokerRunsTheWorkloadOnceForTheBatchSize(String broker, @TempDir Path out) throws Exception {
        JsonNode results = runTiny(broker, out);
        assertEquals(0, results.get("skipped").size(), results.get("skipped").toString());
        JsonNode runs = results.get("runs");
        assertEquals(1, runs.size(), "one cell for the batch size, whatever the layouts");
        assertEquals("none", runs.get(0).get("layout").asString());
        assertTrue(runs.get(0).at("/throughput/median").asDouble() > 0, runs.toString());
        assertTrue(ResultsSchema.errors(out.resolve("results.json")).isEmpty(), "results.json matches its schema");
        String measured = results.at("/environment/servers/" + broker).asString("");
        assertTrue(measured.startsWith(broker.startsWith("rabbitmq") ? "RabbitMQ " : "NATS "),
                "the broker measured, as it named itself: " + measured);
        assertTrue(Files.readString(out.resolve("report.md")).contains("| " + broker + " server | " + measured + " |"),
                "the report's environment names it");
        JsonNode sample = runs.get(0).at("/samples/0");
        assertTrue(sample.at("/client/cpu_micros_per_message").asDouble() > 0, runs.toString());
        String process = broker.startsWith("rabbitmq") ? "beam.smp" : "nats-server";
        if (BrokerProcess.named(process) != null) { // the broker runs on this machine
            JsonNode figures = sample.get("broker");
            assertTrue(figures.get("process").asString().startsWith(process), figures.toString());
            assertTrue(figures.get("cpu_micros_per_message").asDouble() > 0, figures.toString());
        }
    }

    /** A consumer batch of 100 (prefetch, pull) at 200 messages a second; nats with a pull of 1 too. */
    @ParameterizedTest
    @CsvSource({"rabbitmq, 100", "rabbitmq-quorum, 100", "nats, 100", "nats, 1"})
    void aTrickleOfSingleMessagesIsDeliveredWithoutWaitingForABatch(String broker, int consumerBatch, @TempDir Path out)
            throws Exception {
        JsonNode run = runTiny(broker, out, "--batch-sizes", "1", "--producer-rate", "200", "--consumer-batch",
                String.valueOf(consumerBatch)).get("runs").get(0);
        assertTrue(run.at("/throughput/median").asDouble() > 100, run.toString());
        // a consumer waiting for 100 messages at 200 a second would hold the median message for about 250 ms
        assertTrue(run.at("/read_latency_ms/p50/median").asDouble() < 50, run.toString());
    }

    /** The tiny workload once on {@code broker}, skipped when it is not reachable; its results.json. */
    private JsonNode runTiny(String broker, Path out, String... flags) throws Exception {
        Driver driver = Drivers.all().get(DriverName.of(broker));
        String unavailable = driver.unavailableReason();
        assumeTrue(unavailable == null, () -> "skipped: " + unavailable);
        assertTrue(driver.server().startsWith(broker.startsWith("rabbitmq") ? "RabbitMQ " : "NATS "), driver.server());
        Path workload = Path.of(getClass().getResource("/tiny.yaml").toURI());
        List<String> args = new ArrayList<>(List.of("run", "--workload", workload.toString(), "--out", out.toString(),
                "--drivers", broker, "--repeat", "1"));
        args.addAll(List.of(flags));
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(args.toArray(String[]::new), new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        return new ObjectMapper().readTree(out.resolve("results.json").toFile());
    }
}
