package io.dbqueue.spring;

import io.dbqueue.queue.Layout;
import io.dbqueue.spring.schedule.DbQueueScheduled;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static io.dbqueue.spring.StarterTestSupport.await;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static org.assertj.core.api.Assertions.assertThat;

/** The endpoint {@code dbqueueschedules} as an HTTP client sees it: list, one, pause, resume, trigger, delete. */
class SchedulesEndpointHttpTest {

    /** A method scheduled once a year: it does not tick during the test. */
    static class Yearly {
        final AtomicInteger runs = new AtomicInteger();

        @DbQueueScheduled(cron = "0 0 1 1 *", queue = "jobs", name = "endpoint-yearly")
        void report() {
            runs.incrementAndGet();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
        @Bean
        Yearly yearly() {
            return new Yearly();
        }
    }

    private static ActuatorHttp start(String table, boolean writeEnabled) {
        return ActuatorHttp.start(Application.class, "dbqueueschedules", "dbq.queues.jobs.table=" + table,
                "dbq.queues.jobs.layout=dbq_seq", "dbq.endpoint.write-enabled=" + writeEnabled);
    }

    @Test
    void listsPausesTriggersAndDeletesOverHttp() throws Exception {
        String table = createTable(Layout.DBQ_SEQ);
        try (ActuatorHttp app = start(table, true)) {
            HttpResponse<String> all = app.get("");
            assertThat(all.statusCode()).isEqualTo(200);
            assertThat(all.body()).contains("{\"name\":\"endpoint-yearly\",\"queue\":\"" + table + "/jobs\","
                    + "\"trigger\":\"cron '0 0 1 1 *' in UTC\",\"missed\":\"RUN_ONCE\",\"nextDue\":\"");
            assertThat(app.get("/endpoint-yearly").body()).contains("\"paused\":false",
                    "\"payload\":\"endpoint-yearly\"");
            HttpResponse<String> none = app.get("/nope");
            assertThat(none.statusCode()).isEqualTo(404);
            assertThat(none.body()).isEqualTo("{\"title\":\"Not Found\",\"status\":404,\"detail\":\"no schedule nope\"}");

            // a write without a JSON body, what a page of another site can send without a preflight with the
            // browser's credentials for this one, is refused and changes nothing
            assertThat(app.postWithoutBody("/endpoint-yearly/pause").statusCode()).isEqualTo(415);
            assertThat(app.get("/endpoint-yearly").body()).contains("\"paused\":false");
            assertThat(app.post("/endpoint-yearly/pause", "{\"by\":\"alice\"}").body()).startsWith(
                    "{\"schedule\":\"endpoint-yearly\",\"action\":\"pause\",\"affected\":1");
            assertThat(app.get("/endpoint-yearly").body()).contains("\"paused\":true");
            assertThat(app.post("/endpoint-yearly/resume", "{}").body()).contains("\"affected\":1");
            HttpResponse<String> triggered = app.post("/endpoint-yearly/trigger", "{}");
            assertThat(triggered.body()).containsPattern("\"taskId\":\\d+");
            Yearly yearly = app.app().getBean(Yearly.class);
            await(Duration.ofSeconds(30), "the triggered run", () -> yearly.runs.get() == 1);

            HttpResponse<String> bad = app.post("/endpoint-yearly/restart", "{}");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(bad.body()).contains("unknown action 'restart'; actions: [pause, resume, trigger, delete]");
            assertThat(app.post("/nope/trigger", "{}").body()).contains("\"status\":400",
                    "schedule 'nope' is not defined in this process");

            assertThat(app.post("/endpoint-yearly/delete", "{}").body()).contains("\"affected\":1");
            assertThat(app.get("/endpoint-yearly").statusCode()).isEqualTo(404);
            assertThat(app.post("/endpoint-yearly/pause", "{}").body()).contains("\"affected\":0");
        }
    }

    /** A row this instance cannot read (a newer zone database's zone) is listed with its error, the others as before. */
    @Test
    void aScheduleThisInstanceCannotReadIsListedWithItsError() throws Exception {
        String table = createTable(Layout.DBQ_SEQ);
        try (ActuatorHttp app = start(table, false)) {
            StarterTestSupport.execute("INSERT INTO dbq_schedules (name, queue_table, queue_name, payload, cron, zone,"
                    + " missed, next_due) VALUES ('endpoint-elsewhere', '" + table + "', 'jobs', 'x', '0 0 1 1 *',"
                    + " 'America/Nowhere_New', 'RUN_ONCE', now() + interval '300 days')");
            HttpResponse<String> all = app.get("");
            assertThat(all.statusCode()).as(all.body()).isEqualTo(200);
            assertThat(all.body()).contains("\"name\":\"endpoint-yearly\",\"queue\":\"" + table + "/jobs\"",
                    "\"name\":\"endpoint-elsewhere\"", "schedule 'endpoint-elsewhere' cannot be read here");
            assertThat(app.get("/endpoint-yearly").body()).contains("\"paused\":false");
            assertThat(app.get("/endpoint-elsewhere").body()).contains("cannot be read here");
        } finally {
            StarterTestSupport.execute("DELETE FROM dbq_schedules WHERE name = 'endpoint-elsewhere'");
        }
    }

    @Test
    void writesAreRefusedWith403UnlessEnabled() throws Exception {
        String table = createTable(Layout.DBQ_SEQ);
        try (ActuatorHttp app = start(table, false)) {
            HttpResponse<String> refused = app.post("/endpoint-yearly/pause", "{}");
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(refused.body()).contains("\"status\":403", "the dbqueueschedules endpoint are disabled",
                    "set dbq.endpoint.write-enabled=true");
            assertThat(app.get("/endpoint-yearly").body()).contains("\"paused\":false");
        }
    }
}
