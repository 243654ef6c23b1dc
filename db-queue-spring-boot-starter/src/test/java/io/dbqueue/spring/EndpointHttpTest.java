package io.dbqueue.spring;

import io.dbqueue.queue.Layout;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

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

    private static ActuatorHttp start(String table, boolean writeEnabled) {
        return ActuatorHttp.start(Application.class, "dbqueue", "dbq.queues.jobs.table=" + table,
                "dbq.queues.jobs.layout=dbq_seq", "dbq.endpoint.write-enabled=" + writeEnabled);
    }

    @Test
    void readsAndWritesOverHttp() throws Exception {
        String table = createTable(Layout.DBQ_SEQ);
        try (ActuatorHttp app = start(table, true)) {
            long id = app.app().getBean(DbQueues.class).producer("jobs").enqueue("waiting");

            HttpResponse<String> all = app.get("");
            assertThat(all.statusCode()).isEqualTo(200);
            assertThat(all.body()).contains("\"writeEnabled\":true", "\"queues\":{\"jobs\":{",
                    "\"location\":\"" + table + "/jobs\"", "\"waiting\":1", "\"topics\":{}");
            assertThat(app.get("/jobs").body()).startsWith("{\"location\":\"" + table + "/jobs\"");
            HttpResponse<String> unknown = app.get("/nope");
            assertThat(unknown.statusCode()).isEqualTo(404);
            assertThat(unknown.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(unknown.body()).isEqualTo("{\"title\":\"Not Found\",\"status\":404,\"detail\":"
                    + "\"unknown queue id 'nope'; configured under dbq.queues: [jobs]\"}");

            assertThat(app.post("/jobs/pause", "{}").body()).isEqualTo(
                    "{\"queue\":\"jobs\",\"action\":\"pause\",\"affected\":1}");
            assertThat(app.post("/jobs/resume", "").body()).contains("\"affected\":1");
            assertThat(app.post("/jobs/requeue", "{\"ids\":\"" + id + ", 99\"}").body()).contains("\"affected\":0");
            assertThat(app.post("/jobs/delete", "{\"all\":true}").body()).contains("\"affected\":0");
            assertThat(app.post("/jobs/reschedule", "{\"id\":" + id + ",\"dueAt\":\""
                    + Instant.now().plusSeconds(60) + "\"}").body()).contains("\"affected\":1");
            assertThat(app.get("/jobs").body()).contains("\"scheduled\":1");
            assertThat(app.post("/jobs/cancel", "{\"id\":" + id + "}").body()).contains("\"affected\":1");

            HttpResponse<String> bad = app.post("/jobs/cancel", "{}");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(bad.body()).isEqualTo("{\"title\":\"Bad Request\",\"status\":400,\"detail\":\"give either id"
                    + " (a waiting task's id) or key (the idempotency key it was enqueued with)\"}");
            HttpResponse<String> notANumber = app.post("/jobs/cancel", "{\"id\":\"seven\"}");
            assertThat(notANumber.statusCode()).isEqualTo(400);
            assertThat(notANumber.body()).contains("\"detail\":\"id must be a whole number, was seven\"");
            assertThat(app.post("/jobs/delete", "{\"all\":\"yes\"}").body()).contains("all must be true or false");
            assertThat(app.post("/jobs/requeue", "{\"ids\":\"7,x\"}").statusCode()).isEqualTo(400);
            assertThat(app.post("/jobs/restart", "{}").statusCode()).isEqualTo(400);
            assertThat(app.post("/nope/pause", "{}").statusCode()).isEqualTo(400);
            // the core's refusal of a value is a 400 with its reason, not a 500
            HttpResponse<String> farAhead = app.post("/jobs/reschedule", "{\"id\":" + id
                    + ",\"dueAt\":\"2200-01-01T00:00:00Z\"}");
            assertThat(farAhead.statusCode()).isEqualTo(400);
            assertThat(farAhead.body()).contains("\"status\":400", "within 100 years");
            // views refuse with a reason too, and an unknown queue's view is 404
            HttpResponse<String> noLimit = app.get("/jobs/dead-letters?limit=0");
            assertThat(noLimit.statusCode()).isEqualTo(400);
            assertThat(noLimit.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(noLimit.body()).contains("limit must be at least 1, was 0");
            HttpResponse<String> badLimit = app.get("/jobs/dead-letters?limit=x");
            assertThat(badLimit.statusCode()).isEqualTo(400);
            assertThat(badLimit.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(badLimit.body()).contains("limit must be a whole number, was x");
            assertThat(app.get("/jobs/task?id=7x").body()).contains("id must be a whole number, was 7x");
            assertThat(app.get("/jobs/task").body()).contains("give either id");
            assertThat(app.get("/jobs/bogus").body()).contains("unknown view 'bogus'");
            assertThat(app.get("/jobs/dead-letters").statusCode()).isEqualTo(200);
            assertThat(app.get("/nope/task?id=1").statusCode()).isEqualTo(404);
            assertThat(app.get("/jobs/task?key=never-used").body()).contains("\"status\":404",
                    "no task of key never-used in queue jobs");
            // a key the queue could not have stored is refused naming why, not a 500 from the driver
            HttpResponse<String> nulKey = app.get("/jobs/task?key=%00");
            assertThat(nulKey.statusCode()).isEqualTo(400);
            assertThat(nulKey.body()).contains("key contains");
            assertThat(app.post("/jobs/cancel", "{\"key\":\"\\u0000\"}").statusCode()).isEqualTo(400);
        }
    }

    @Test
    void writesAreRefusedWith403UnlessEnabled() throws Exception {
        String table = createTable(Layout.DBQ_SEQ);
        try (ActuatorHttp app = start(table, false)) {
            HttpResponse<String> refused = app.post("/jobs/pause", "{}");
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(refused.body()).contains("\"status\":403", "set dbq.endpoint.write-enabled=true");
            assertThat(app.get("/jobs").body()).contains("\"paused\":false");
        }
    }
}
