package io.dbqueue.stack;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole system as processes: 2 producers, 2 consumers and test-app on an embedded PostgreSQL
 * (or DBQ_JDBC_URL's). Needs the services' jars: in a reactor build of apps/ they are packaged before this
 * module's tests run (apps/pom.xml lists stack last), e.g. {@code ./mvnw verify -pl
 * apps/producer-app,apps/consumer-app,apps/test-app,apps/stack}.
 */
class StackEndToEndTest {

    private static final int MESSAGES = 2000;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /** In the experiment's three processing modes: separate transactions (at least once), wrap in transaction, external executor. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"at-least-once", "wrap-in-transaction", "external-executor"})
    void runOf2000MessagesOverTwoProducersAndTwoConsumersIsProcessedExactlyOnceAndCompletes(String mode)
            throws Exception {
        // 4 worker threads per consumer instead of 14: idle polling of 28 threads costs this shared machine CPU
        // (the services run C1 only under the tests: the module's surefire configuration).
        StackOptions options = StackOptions.builder().producers(2).consumers(2).consumerThreads(4).mode(mode)
                .logDir(Path.of("target", "stack-e2e-logs", mode)).build();
        try (Stack stack = Stack.start(options)) {
            String testApp = stack.testAppUrl();
            long id = JSON.readTree(send(HttpRequest.newBuilder(URI.create(testApp + "/?testDataCount=" + MESSAGES))
                    .POST(HttpRequest.BodyPublishers.noBody()))).get("id").asLong();

            JsonNode run = awaitEnd(testApp + "/" + id, Duration.ofMinutes(2));

            assertEquals("COMPLETE", run.get("status").asString(), () -> "run ended " + run);
            assertEquals(MESSAGES, run.get("messageCount").asLong());
            assertEquals(MESSAGES, run.get("processedCount").asLong());
            assertEquals(MESSAGES, run.get("sentCount").asLong());
            double duration = run.get("durationSeconds").asDouble();
            assertTrue(duration > 0, () -> "duration " + duration);
            assertEquals(MESSAGES / duration, run.get("rps").asDouble(), MESSAGES / duration * 0.001, "rps = messages / seconds");
            JsonNode latency = run.get("latencyMs");
            assertTrue(latency.get("min").asDouble() >= 0
                    && latency.get("min").asDouble() <= latency.get("p50").asDouble()
                    && latency.get("p50").asDouble() <= latency.get("p95").asDouble()
                    && latency.get("p95").asDouble() <= latency.get("p99").asDouble()
                    && latency.get("p99").asDouble() <= latency.get("max").asDouble(), () -> "latency " + latency);
            long perSecond = 0;
            for (JsonNode second : run.get("throughput")) {
                perSecond += second.get("count").asLong();
            }
            assertEquals(MESSAGES, perSecond, "throughput series adds up to the message count");
            JsonNode buckets = run.get("latencyBuckets");
            assertEquals(MESSAGES, buckets.get(buckets.size() - 1).get("upTo").asLong());
            assertEquals(0, remainingTasks(stack), "queue table empty after the run");
            assertTrue(send(HttpRequest.newBuilder(URI.create(stack.dashboardUrls().get(0)))).contains("<title>db-queue"),
                    "the consumers serve the dashboard");
            JsonNode queues = JSON.readTree(send(HttpRequest.newBuilder(URI.create(stack.consumerUrls().get(0)
                    + "/actuator/dbqueue")))).get("queues");
            assertEquals(0, queues.properties().iterator().next().getValue().get("waiting").asLong(),
                    "the dashboard's endpoint reads the queue");

            // closed from a thread whose interrupt flag is set, every service stops (the consumers and test-app
            // were left running) and the flag is kept
            Map<String, Long> pids = stack.pids();
            Thread.currentThread().interrupt();
            try {
                stack.close();
            } finally {
                assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
            }
            pids.forEach((service, pid) -> assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                    service + " stopped"));
        }
    }

    private static JsonNode awaitEnd(String runUrl, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode run = JSON.readTree(send(HttpRequest.newBuilder(URI.create(runUrl))));
            if (!run.get("status").asString().equals("RUNNING") || System.nanoTime() > deadline) {
                return run;
            }
            Thread.sleep(200); // polling interval of the await loop, not a stand-in for synchronisation
        }
    }

    private static String send(HttpRequest.Builder request) throws Exception {
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response::body);
        return response.body();
    }

    private static long remainingTasks(Stack stack) throws Exception {
        try (Connection c = stack.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM " + stack.options().table())) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
