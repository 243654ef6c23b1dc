package io.dbqueue.testapp;

import io.dbqueue.postgres.PostgresServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class TestAppTest {

    private static final FakeProducers PRODUCERS = new FakeProducers();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    ObjectMapper json;

    @Autowired
    JdbcTemplate results;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        PostgresServer db = PostgresServer.shared();
        registry.add("spring.datasource.url", () -> db.createDatabase("test_app_test"));
        registry.add("spring.datasource.username", db::user);
        registry.add("spring.datasource.password", db::password);
        registry.add("test-app.producers-urls", PRODUCERS::url);
        // Long enough that a slow first /stats request on a loaded machine does not look like a stall.
        registry.add("test-app.stall-timeout", () -> "10s");
        registry.add("test-app.latency-bucket-size", () -> "20");
    }

    @AfterEach
    void producersAnswerOk() {
        PRODUCERS.answer(200);
        PRODUCERS.bodies().clear();
    }

    @AfterAll
    static void stopProducers() {
        PRODUCERS.close();
    }

    @Test
    void runCompletesWhenEveryMessageIsProcessedAndReportsConsistentFigures() throws Exception {
        long id = startRun(50);
        await().atMost(Duration.ofSeconds(20)).until(() -> PRODUCERS.bodies().size() == 50);
        assertThat(post("/?testDataCount=5").statusCode()).as("a second run while one is in progress").isEqualTo(409);

        JsonNode first = json.readTree(PRODUCERS.bodies().get(0));
        assertThat(first.get("testId").asLong()).isEqualTo(id);
        assertThat(first.get("message").asString()).startsWith("Hello ");

        List<Stat> stats = new ArrayList<>();
        long t0 = System.currentTimeMillis() * 1000;
        for (int i = 0; i < 50; i++) {
            stats.add(new Stat(id, 1000 + i, t0 + i * 1000L, t0 + i * 1000L + 500, t0 + i * 1000L + 2000 + i * 100L));
        }
        assertThat(post("/stats", json.writeValueAsString(stats.subList(0, 30))).statusCode()).isEqualTo(204);
        assertThat(post("/stats", json.writeValueAsString(stats.subList(0, 10))).statusCode())
                .as("a message reported twice").isEqualTo(204);
        assertThat(run(id).get("status").asString()).isEqualTo("RUNNING");
        assertThat(run(id).get("processedCount").asLong()).isEqualTo(30);
        post("/stats", json.writeValueAsString(stats.subList(30, 50)));

        await().atMost(Duration.ofSeconds(10)).until(() -> run(id).get("status").asString().equals("COMPLETE"));
        JsonNode run = run(id);
        assertThat(run.get("messageCount").asLong()).isEqualTo(50);
        assertThat(run.get("processedCount").asLong()).isEqualTo(50);
        double duration = run.get("durationSeconds").asDouble();
        assertThat(duration).isCloseTo((49 * 1000 + 2000 + 49 * 100) / 1e6, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(run.get("rps").asDouble()).isCloseTo(50 / duration, org.assertj.core.data.Offset.offset(0.01));
        JsonNode latency = run.get("latencyMs");
        assertThat(latency.get("min").asDouble()).isEqualTo(2.0);
        assertThat(latency.get("max").asDouble()).isEqualTo(6.9);
        assertThat(latency.get("p50").asDouble()).isLessThanOrEqualTo(latency.get("p95").asDouble());
        assertThat(latency.get("p95").asDouble()).isLessThanOrEqualTo(latency.get("p99").asDouble());
        assertThat(latency.get("p99").asDouble()).isLessThanOrEqualTo(latency.get("max").asDouble());
        assertThat(run.get("start").asString()).endsWith("Z");
        long perSecond = 0;
        for (JsonNode second : run.get("throughput")) {
            perSecond += second.get("count").asLong();
        }
        assertThat(perSecond).isEqualTo(50);
        assertThat(run.get("latencyBuckets")).hasSize(3);
        assertThat(run.get("latencyBuckets").get(2).get("upTo").asLong()).isEqualTo(50);

        JsonNode listed = find(json.readTree(get("/").body()), id);
        assertThat(listed.get("status").asString()).isEqualTo("COMPLETE");
        assertThat(listed.has("throughput")).as("the list leaves out the series").isFalse();
    }

    @Test
    void aReportLongerThanTheLimitIsRefusedWith413() throws Exception {
        HttpResponse<String> refused = post("/stats", "[" + " ".repeat(17 * 1024 * 1024) + "]");
        assertThat(refused.statusCode()).isEqualTo(413);
        assertThat(json.readTree(refused.body()).get("detail").asString())
                .contains("exceeds the maximum allowed (16777216");
    }

    @Test
    void runWhoseMessagesStopArrivingIsMarkedFailedWithItsCounts() throws Exception {
        long id = startRun(5);
        await().atMost(Duration.ofSeconds(40)).until(() -> run(id).get("status").asString().equals("FAILED"));
        JsonNode run = run(id);
        assertThat(run.get("failure").asString()).contains("no progress").contains("sent 5 of 5").contains("processed 0");
        assertThat(run.get("processedCount").asLong()).isZero();
    }

    /**
     * A run whose completion fails once (the results database refuses the update) is completed at the watchdog's next
     * round. It used to stay running, answer 500 to the last report, and fail as stalled with every message processed.
     */
    @Test
    void aRunWhoseCompletionFailsOnceCompletesAfterAll() throws Exception {
        // a sequence counts the attempts: it is not rolled back with the failed update
        results.execute("CREATE SEQUENCE complete_fails_once");
        results.execute("CREATE FUNCTION complete_fails_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " IF NEW.status = 'COMPLETE' AND nextval('complete_fails_once') = 1 THEN"
                + " RAISE EXCEPTION 'results database refused'; END IF; RETURN NEW; END $$");
        results.execute("CREATE TRIGGER complete_fails_once BEFORE UPDATE ON test_run FOR EACH ROW"
                + " EXECUTE FUNCTION complete_fails_once()");
        try {
            long id = startRun(5);
            await().atMost(Duration.ofSeconds(20)).until(() -> PRODUCERS.bodies().size() == 5);
            long t0 = System.currentTimeMillis() * 1000;
            List<Stat> stats = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                stats.add(new Stat(id, 2000 + i, t0 + i, t0 + i + 500, t0 + i + 2000));
            }
            assertThat(post("/stats", json.writeValueAsString(stats)).statusCode()).as("the stats are stored")
                    .isEqualTo(204);
            await().atMost(Duration.ofSeconds(10)).until(() -> run(id).get("status").asString().equals("COMPLETE"));
            assertThat(run(id).get("processedCount").asLong()).isEqualTo(5);
        } finally {
            results.execute("DROP TRIGGER complete_fails_once ON test_run");
            results.execute("DROP FUNCTION complete_fails_once()");
            results.execute("DROP SEQUENCE complete_fails_once");
        }
    }

    /** A refusal, and a redirect (not followed for a POST: nothing stored), where a 3xx counted as sent. */
    @ParameterizedTest
    @ValueSource(ints = {503, 302})
    void runFailsWhenAProducerDoesNotStoreAMessage(int status) throws Exception {
        PRODUCERS.answer(status);
        long id = startRun(3);
        await().atMost(Duration.ofSeconds(10)).until(() -> run(id).get("status").asString().equals("FAILED"));
        assertThat(run(id).get("failure").asString()).contains("answered " + status);
    }

    @Test
    void badTestDataCountIsRejectedWithJson() throws Exception {
        for (String query : List.of("?testDataCount=0", "?testDataCount=abc", "")) {
            HttpResponse<String> response = post("/" + query);
            assertThat(response.statusCode()).as(query).isEqualTo(400);
            assertThat(json.readTree(response.body()).get("detail").asString()).as(query).contains("testDataCount");
        }
        HttpResponse<String> twice = post("/?testDataCount=1&testDataCount=2");
        assertThat(twice.statusCode()).isEqualTo(400);
        assertThat(json.readTree(twice.body()).get("detail").asString()).contains("testDataCount was given 2 times");
        assertThat(get("/999999").statusCode()).isEqualTo(404);
    }

    /** A statistic is stored as sent or refused naming its field: no 1.9 taken as 1, no "7" as 7, nothing ignored. */
    @Test
    void statisticsThatDoNotBindAsSentAreRefusedByField() throws Exception {
        String times = "\"enqueuedAtMicros\":1,\"claimedAtMicros\":2,\"completedAtMicros\":3";
        Map<String, String> problems = Map.of(
                "[{\"testId\":7,\"taskId\":1.9," + times + "}]", "field '[0].taskId'",
                "[{\"testId\":\"7\",\"taskId\":1," + times + "}]", "field '[0].testId'",
                "[{\"testId\":7,\"taskId\":1,\"extra\":0," + times + "}]", "field '[0].extra'",
                "[{\"testId\":7," + times + "}]", "field '[0]",
                "[{\"testId\":7,\"taskId\":1,\"taskId\":2," + times + "}]", "Duplicate Object property \"taskId\"",
                "[{\"testId\":7,\"taskId\":" + "9".repeat(1_001) + "," + times + "}]", "Number value length (1001)");
        for (Map.Entry<String, String> problem : problems.entrySet()) {
            HttpResponse<String> answer = post("/stats", problem.getKey());
            assertThat(answer.statusCode()).as(problem.getKey()).isEqualTo(400);
            assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(json.readTree(answer.body()).get("detail").asString()).as(problem.getKey())
                    .contains(problem.getValue());
        }
    }

    /** A null element, or a timing whose latency would overflow, used to answer 500 (and keep a run going forever). */
    @Test
    void statisticsNoConsumerSendsAreRefusedNamingTheFirst() throws Exception {
        String stat = "{\"testId\":999999,\"taskId\":1,\"enqueuedAtMicros\":%d,\"claimedAtMicros\":2,\"completedAtMicros\":%d}";
        Map<String, String> problems = Map.of(
                "[null]", "[0]: null where a statistic belongs",
                "[" + stat.formatted(1, 3) + ",null]", "[1]: null",
                "[" + stat.formatted(-9_000_000_000_000_000_000L, 9_000_000_000_000_000_000L) + "]",
                "[0].enqueuedAtMicros must be microseconds since the epoch before the year 3000");
        for (Map.Entry<String, String> problem : problems.entrySet()) {
            HttpResponse<String> answer = post("/stats", problem.getKey());
            assertThat(answer.statusCode()).as(problem.getKey()).isEqualTo(400);
            assertThat(json.readTree(answer.body()).get("detail").asString()).as(problem.getKey())
                    .contains(problem.getValue());
        }
        assertThat(post("/stats", "[" + stat.formatted(1, 3) + "]").statusCode()).isEqualTo(204);
    }

    /** A run's seconds counted from its first enqueue past 2^31 (a report it accepts: years apart) used to answer 500. */
    @Test
    void aRunWhoseTimingsLieYearsApartIsStillShown() throws Exception {
        long id = startRun(2);
        String stat = "{\"testId\":%d,\"taskId\":%d,\"enqueuedAtMicros\":0,\"claimedAtMicros\":0,\"completedAtMicros\":%d}";
        assertThat(post("/stats", "[" + stat.formatted(id, 1, 1) + "," + stat.formatted(id, 2, 2_500_000_000_000_000L)
                + "]").statusCode()).isEqualTo(204);
        HttpResponse<String> shown = get("/" + id);
        assertThat(shown.statusCode()).as(shown.body()).isEqualTo(200);
    }

    private long startRun(int count) throws Exception {
        HttpResponse<String> response = post("/?testDataCount=" + count);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json.readTree(response.body()).get("id").asLong();
    }

    private JsonNode run(long id) throws Exception {
        return json.readTree(get("/" + id).body());
    }

    private static JsonNode find(JsonNode runs, long id) {
        for (JsonNode run : runs) {
            if (run.get("id").asLong() == id) {
                return run;
            }
        }
        throw new AssertionError("run " + id + " not listed in " + runs);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path) throws Exception {
        return post(path, "");
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
