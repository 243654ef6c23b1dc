package io.dbqueue.producer;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "dbq.initialize-schema=always",
        "dbq.queues.messages.table=producer_test",
        "dbq.queues.messages.layout=queue_tasks_5",
        "producer.max-body-bytes=2000",
        "producer.max-batch-messages=5"})
class ProducerAppTest {

    @LocalServerPort
    int port;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    ObjectMapper json;

    @Autowired
    WebServerApplicationContext context;

    Http http;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        ProducerTestSupport.sharedDatabase(registry);
    }

    @BeforeEach
    void emptyQueue() {
        http = new Http(port);
        jdbc.sql("DELETE FROM producer_test").update();
    }

    @Test
    void concurrentMessagesAreAllCommittedBeforeTheyAreAnswered() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            String body = "{\"message\": \"Hello " + i + "\", \"testId\": 7}";
            responses.add(CompletableFuture.supplyAsync(() -> post("/", body)));
        }
        for (CompletableFuture<HttpResponse<String>> response : responses) {
            HttpResponse<String> answer = response.join();
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            long id = json.readTree(answer.body()).get("id").asLong();
            assertThat(jdbc.sql("SELECT payload FROM producer_test WHERE id = ?").param(id).query(String.class).single())
                    .as("answered only after commit").startsWith("{\"message\":\"Hello ");
        }
        assertThat(jdbc.sql("SELECT count(*) FROM producer_test WHERE payload LIKE '%\"testId\":7}'")
                .query(Long.class).single()).isEqualTo(25);
    }

    /** Under virtual threads every accepted request runs at once, its body in memory: the connections are capped. */
    @Test
    void connectionsServedAtOnceAreCapped() {
        TomcatWebServer server = (TomcatWebServer) context.getWebServer();
        assertThat(server.getTomcat().getConnector().getProperty("maxConnections")).isEqualTo(512);
    }

    @Test
    void batchIsStoredWhole() throws Exception {
        HttpResponse<String> answer = post("/batch",
                "[{\"message\":\"a\",\"testId\":1},{\"message\":\"b\",\"testId\":1},{\"message\":\"c\",\"testId\":1}]");
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(json.readTree(answer.body()).get("ids")).hasSize(3);
        assertThat(jdbc.sql("SELECT payload FROM producer_test ORDER BY id").query(String.class).list())
                .containsExactly("{\"message\":\"a\",\"testId\":1}", "{\"message\":\"b\",\"testId\":1}",
                        "{\"message\":\"c\",\"testId\":1}");
    }

    @Test
    void invalidBodiesAreRefusedWithTheProblemNamedAndNothingStored() throws Exception {
        Map<String, String> problems = Map.of(
                "{\"message\": \"x\", \"testId\": ", "malformed JSON",
                "{\"testId\": 1}", "field 'message' is missing",
                "{\"message\": 5, \"testId\": 1}", "field 'message' must be a string",
                "{\"message\": \"x\", \"testId\": \"1\"}", "field 'testId' must be an integer",
                "{\"message\": \"x\", \"testId\": 1.5}", "field 'testId' must be an integer",
                "[{\"message\": \"x\", \"testId\": 1}]", "must be a JSON object",
                "{\"message\": \"" + "x".repeat(2000) + "\", \"testId\": 1}", "request body exceeds 2000 bytes",
                "", "request body is empty");
        for (Map.Entry<String, String> problem : problems.entrySet()) {
            assertBadRequest("/", problem.getKey(), problem.getValue());
        }
        assertBadRequest("/batch", "[{\"message\":\"a\",\"testId\":1},{\"message\":\"b\",\"testId\":true}]",
                "field '[1].testId' must be an integer");
        assertBadRequest("/batch", "[{\"message\":\"a\",\"testId\":1},{\"message\":\"b\"}]", "field '[1].testId' is missing");
        assertBadRequest("/", "{}", "field 'message' is missing");
        assertBadRequest("/batch", "[]", "a batch must hold 1 to 5 messages");
        assertBadRequest("/batch", "[" + "{\"message\":\"a\",\"testId\":1},".repeat(5) + "{\"message\":\"a\",\"testId\":1}]",
                "a batch must hold 1 to 5 messages, this one holds 6");
        assertBadRequest("/batch", "{\"message\":\"a\",\"testId\":1}", "body must be a JSON array");
        assertBadRequest("/", "{\"message\": \"nul\\u0000\", \"testId\": 1}", "NUL character");
        assertBadRequest("/", "{\"message\": \"x\\ud800y\", \"testId\": 1}", "field 'message' contains an unpaired UTF-16");
        assertBadRequest("/", "{\"message\": \"x\", \"testId\": 1, \"priority\": 2}",
                "field 'priority' is not a field of a message [message, testId]");
        assertBadRequest("/batch", "[{\"message\":\"a\",\"testId\":1,\"x\":null}]", "field '[0].x' is not a field");
        assertBadRequest("/", "{\"message\": \"a\", \"message\": \"b\", \"testId\": 1}", "malformed JSON: Duplicate");
        assertThat(jdbc.sql("SELECT count(*) FROM producer_test").query(Long.class).single()).isZero();
    }

    @Test
    void aRequestSentAgainWithItsIdempotencyKeyStoresNothingAndAnswersTheFirstIds() throws Exception {
        String message = "{\"message\": \"once\", \"testId\": 9}";
        HttpResponse<String> first = http.post("/", message, "client-1:req-1");
        HttpResponse<String> again = http.post("/", message, "client-1:req-1");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(again.headers().firstValue("Idempotent-Replayed")).contains("true");

        String batch = "[{\"message\":\"a\",\"testId\":9},{\"message\":\"b\",\"testId\":9}]";
        HttpResponse<String> batchFirst = http.post("/batch", batch, "client-1:req-2");
        HttpResponse<String> batchAgain = http.post("/batch", batch, "client-1:req-2");
        assertThat(batchAgain.body()).isEqualTo(batchFirst.body());
        assertThat(batchAgain.headers().firstValue("Idempotent-Replayed")).contains("true");
        assertThat(json.readTree(batchFirst.body()).get("ids")).hasSize(2);
        assertThat(jdbc.sql("SELECT count(*) FROM producer_test WHERE payload LIKE '%\"testId\":9}'")
                .query(Long.class).single()).isEqualTo(3);

        for (String bad : List.of("", "with space", "k".repeat(201))) {
            HttpResponse<String> answer = http.post("/", message, bad);
            assertThat(answer.statusCode()).as(bad).isEqualTo(400);
            assertThat(json.readTree(answer.body()).get("detail").asString()).contains("header Idempotency-Key must be");
        }
        String headers = "Content-Type: application/json\r\n";
        String utf8AsSent = new String("ключ".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        assertProblem(http.raw("POST", "/", headers + "Idempotency-Key: " + utf8AsSent + "\r\n", message), 400,
                "visible ASCII characters; character 1 is not ASCII");
        assertProblem(http.raw("POST", "/batch", headers + "Idempotency-Key: d1\r\nIdempotency-Key: d2\r\n",
                "[" + message + "]"), 400, "header Idempotency-Key was sent 2 times");
        assertThat(jdbc.sql("SELECT count(*) FROM producer_test").query(Long.class).single()).isEqualTo(3);
    }

    @Test
    void everyErrorIsAProblemDetailTheWebServersOwnIncluded() throws Exception {
        String message = "{\"message\":\"x\",\"testId\":1}";
        String json = "Content-Type: application/json\r\n";
        assertProblem(http.raw("POST", "/", json + "Idempotency-Key: " + "k".repeat(10 * 1024) + "\r\n", message),
                400, "Request header is too large");
        assertProblem(http.raw("POST", "/", json + "Idempotency-Key: a\u0001b\r\n", message), 400, "does not conform");
        assertProblem(http.raw("POST", "/../../etc/passwd", json, message), 400, "Invalid URI");
        assertProblem(http.raw("POST", "/%2e%2e/%2e%2e/x", json, message), 400, "Invalid URI");
        assertProblem(http.raw("POST", "/%zz", json, message), 400, "Invalid URI");
        assertProblem(http.raw("POST", "/nope", json + "Accept: text/html\r\n", message), 404, "No static resource");
        assertProblem(http.raw("GET", "/", "", ""), 405, "Method 'GET' is not supported");
        assertProblem(http.raw("POST", "/", "Content-Type: text/plain\r\n", message), 415, "'text/plain' is not supported");
        assertProblem(http.raw("POST", "/", json + "Accept: text/html\r\n", message), 406, "Acceptable representations");
        assertProblem(http.raw("GET", "/error", "", ""), 404, "no such resource: /error");
        assertProblem(http.raw("GET", "/actuator/health/nope", "", ""), 404, "\"status\":404");
        assertThat(jdbc.sql("SELECT count(*) FROM producer_test").query(Long.class).single()).isZero();
    }

    @Test
    void aKeyReusedForAnotherBodyIsRefusedWith422AndNothingStored() throws Exception {
        HttpResponse<String> first = http.post("/", "{\"message\":\"first\",\"testId\":3}", "reuse-1");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        HttpResponse<String> reordered = http.post("/", "{ \"testId\": 3, \"message\": \"first\" }", "reuse-1");
        assertThat(reordered.body()).as("the same message, other spacing and field order").isEqualTo(first.body());
        HttpResponse<String> second = http.post("/", "{\"message\":\"second\",\"testId\":3}", "reuse-1");
        assertThat(second.statusCode()).as(second.body()).isEqualTo(422);
        assertThat(second.headers().firstValue("Content-Type")).contains("application/problem+json");
        assertThat(json.readTree(second.body()).get("detail").asString())
                .contains("Idempotency-Key 'reuse-1' was already used for a different request body");

        String batch = "[{\"message\":\"a\",\"testId\":3}]";
        assertThat(http.post("/batch", batch, "reuse-2").statusCode()).isEqualTo(200);
        HttpResponse<String> longer = http.post("/batch",
                "[{\"message\":\"a\",\"testId\":3},{\"message\":\"b\",\"testId\":3}]", "reuse-2");
        assertThat(longer.statusCode()).as(longer.body()).isEqualTo(422);
        // one key, one request, whichever endpoint: a key used on one endpoint is refused on the other
        assertThat(http.post("/batch", "[{\"message\":\"first\",\"testId\":3}]", "reuse-1").statusCode())
                .isEqualTo(422);
        assertThat(http.post("/", "{\"message\":\"a\",\"testId\":3}", "reuse-2").statusCode()).isEqualTo(422);
        assertThat(jdbc.sql("SELECT payload FROM producer_test ORDER BY id").query(String.class).list())
                .as("neither the second body nor the longer batch's new message")
                .containsExactly("{\"message\":\"first\",\"testId\":3}", "{\"message\":\"a\",\"testId\":3}");
    }

    /** A raw answer's status, its problem+json content type, and its detail. */
    private static void assertProblem(String answer, int status, String detail) {
        assertThat(answer).as(answer).startsWith("HTTP/1.1 " + status + " ");
        assertThat(answer.lines().filter(l -> l.toLowerCase().startsWith("content-type:")).findFirst())
                .as(answer).hasValueSatisfying(type -> assertThat(type).contains("application/problem+json"));
        assertThat(answer).as(answer).contains("\"status\":" + status).contains(detail);
    }

    private void assertBadRequest(String path, String body, String problem) throws Exception {
        HttpResponse<String> answer = post(path, body);
        assertThat(answer.statusCode()).as(body).isEqualTo(400);
        assertThat(answer.headers().firstValue("Content-Type")).as(body).contains("application/problem+json");
        JsonNode problemDetail = json.readTree(answer.body());
        assertThat(problemDetail.get("status").asInt()).isEqualTo(400);
        assertThat(problemDetail.get("detail").asString()).as(body).contains(problem);
    }

    private HttpResponse<String> post(String path, String body) {
        try {
            return http.post(path, body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
