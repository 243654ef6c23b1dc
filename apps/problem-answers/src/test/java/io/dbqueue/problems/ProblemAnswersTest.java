package io.dbqueue.problems;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** Every error answer is a problem detail: Tomcat's own, the error page's, and a status set without a body. */
@SpringBootTest(classes = ProblemAnswersTest.App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "server.address=127.0.0.1")
class ProblemAnswersTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @EnableAutoConfiguration
    @Import(App.Endpoints.class)
    static class App {
        @RestController
        static class Endpoints {
            @GetMapping("/bare")
            ResponseEntity<Void> bare() {
                return ResponseEntity.status(409).build();
            }

            @GetMapping("/fails")
            String fails() {
                throw new IllegalStateException("internal detail that must not reach the client");
            }
        }
    }

    @Test
    void tomcatsOwnRefusalIsAProblem() throws Exception {
        assertProblem(get("/%2e%2e/%2e%2e/x"), 400, "Invalid URI");
    }

    @Test
    void anUnknownPathIsAProblem() throws Exception {
        assertProblem(get("/nope"), 404, "\"status\":404");
    }

    @Test
    void anErrorStatusAnsweredWithoutABodyGetsAProblem() throws Exception {
        assertProblem(get("/bare"), 409, "\"title\":\"Conflict\"");
    }

    @Test
    void aServerErrorSaysNoMoreThanItsStatus() throws Exception {
        HttpResponse<String> answer = get("/fails");
        assertProblem(answer, 500, "\"detail\":\"Internal Server Error\"");
        assertThat(answer.body()).doesNotContain("internal detail");
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void assertProblem(HttpResponse<String> answer, int status, String content) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
        assertThat(answer.headers().firstValue("Content-Type")).as(answer.body()).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(answer.body()).contains(content);
    }
}
