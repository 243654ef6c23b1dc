package io.dbqueue.consumer;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** consumer-app answers only health, and every error as a problem detail, Tomcat's own included. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "dbq.auto-startup=false")
class ErrorAnswersTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ConsumerTestSupport.database(registry);
    }

    @Test
    void everyErrorIsAProblemDetail() throws Exception {
        assertProblem(send("GET", "/nope"), 404);
        assertProblem(send("POST", "/actuator/health"), 405);
        assertProblem(send("GET", "/actuator/health/nope"), 404);
        assertProblem(send("GET", "/%2e%2e/%2e%2e/x"), 400);
        assertThat(send("GET", "/actuator/health").statusCode()).isEqualTo(200);
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertProblem(HttpResponse<String> answer, int status) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
        assertThat(answer.headers().firstValue("Content-Type")).as(answer.body()).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(answer.body()).contains("\"status\":" + status);
    }
}
