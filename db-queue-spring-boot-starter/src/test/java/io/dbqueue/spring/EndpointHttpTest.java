package io.dbqueue.spring;

import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;

import static io.dbqueue.spring.StarterTestSupport.createTable;
import static org.assertj.core.api.Assertions.assertThat;

/** The endpoint {@code dbqueue} as an HTTP client sees it: paths, JSON bodies, status codes. */
class EndpointHttpTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
    }

    private final HttpClient http = HttpClient.newHttpClient();

    private static ConfigurableApplicationContext start(String table, boolean writeEnabled) {
        PostgresServer server = PostgresServer.shared();
        return new SpringApplicationBuilder(Application.class).properties(
                "server.port=0", "spring.main.banner-mode=off",
                "spring.datasource.url=" + StarterTestSupport.jdbcUrl(),
                "spring.datasource.username=" + server.user(), "spring.datasource.password=" + server.password(),
                "management.endpoints.web.exposure.include=dbqueue",
                "dbq.queues.jobs.table=" + table, "dbq.queues.jobs.layout=dbq_seq",
                "dbq.endpoint.write-enabled=" + writeEnabled).run();
    }

    private HttpResponse<String> get(ConfigurableApplicationContext app, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(app, path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(ConfigurableApplicationContext app, String path, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(app, path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(ConfigurableApplicationContext app, String path) {
        return URI.create("http://localhost:" + app.getEnvironment().getProperty("local.server.port")
                + "/actuator/dbqueue" + path);
    }

    @Test
    void readsAndWritesOverHttp() throws Exception {
        String table = createTable(Layout.DBQ_SEQ);
        try (ConfigurableApplicationContext app = start(table, true)) {
            long id = app.getBean(DbQueues.class).producer("jobs").enqueue("waiting");

            HttpResponse<String> all = get(app, "");
            assertThat(all.statusCode()).isEqualTo(200);
            assertThat(all.body()).contains("\"writeEnabled\":true", "\"queues\":{\"jobs\":{",
                    "\"location\":\"" + table + "/jobs\"", "\"waiting\":1", "\"topics\":{}");
            assertThat(get(app, "/jobs").body()).startsWith("{\"location\":\"" + table + "/jobs\"");
            assertThat(get(app, "/nope").statusCode()).isEqualTo(404);

            assertThat(post(app, "/jobs/pause", "{}").body()).isEqualTo(
                    "{\"queue\":\"jobs\",\"action\":\"pause\",\"affected\":1}");
            assertThat(post(app, "/jobs/resume", "").body()).contains("\"affected\":1");
            assertThat(post(app, "/jobs/requeue", "{\"ids\":\"" + id + ", 99\"}").body()).contains("\"affected\":0");
            assertThat(post(app, "/jobs/delete", "{\"all\":true}").body()).contains("\"affected\":0");
            assertThat(post(app, "/jobs/reschedule", "{\"id\":" + id + ",\"dueAt\":\""
                    + Instant.now().plusSeconds(60) + "\"}").body()).contains("\"affected\":1");
            assertThat(get(app, "/jobs").body()).contains("\"scheduled\":1");
            assertThat(post(app, "/jobs/cancel", "{\"id\":" + id + "}").body()).contains("\"affected\":1");

            HttpResponse<String> bad = post(app, "/jobs/cancel", "{}");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(bad.body()).isEqualTo("{\"title\":\"Bad Request\",\"status\":400,\"detail\":\"give either id"
                    + " (a waiting task's id) or key (the idempotency key it was enqueued with)\"}");
            assertThat(post(app, "/jobs/cancel", "{\"id\":\"seven\"}").statusCode()).isEqualTo(400);
            assertThat(post(app, "/jobs/requeue", "{\"ids\":\"7,x\"}").statusCode()).isEqualTo(400);
            assertThat(post(app, "/jobs/restart", "{}").statusCode()).isEqualTo(400);
            assertThat(post(app, "/nope/pause", "{}").statusCode()).isEqualTo(400);
        }
    }

    @Test
    void writesAreRefusedWith403UnlessEnabled() throws Exception {
        String table = createTable(Layout.DBQ_SEQ);
        try (ConfigurableApplicationContext app = start(table, false)) {
            HttpResponse<String> refused = post(app, "/jobs/pause", "{}");
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(refused.body()).contains("\"status\":403", "set dbq.endpoint.write-enabled=true");
            assertThat(get(app, "/jobs").body()).contains("\"paused\":false");
        }
    }
}
