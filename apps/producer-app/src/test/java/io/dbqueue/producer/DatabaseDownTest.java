package io.dbqueue.producer;

import io.dbqueue.postgres.PostgresServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A producer whose database went away answers 503, never 2xx, within its connection timeout: "not stored" when it
 * got no connection, or "outcome unknown" when the pool handed it a connection the stop had broken (the statement's
 * fate is then unknown to it). Uses a PostgreSQL of its own that it stops.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "dbq.initialize-schema=always",
        "dbq.queues.messages.table=queue_tasks_1"})
class DatabaseDownTest {

    private static final PostgresServer DATABASE = PostgresServer.embedded(Map.of());

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", DATABASE::jdbcUrl);
        registry.add("spring.datasource.username", DATABASE::user);
        registry.add("spring.datasource.password", DATABASE::password);
    }

    @AfterAll
    static void stop() {
        DATABASE.close();
    }

    @Test
    void messagesAreRefusedWith503WhenTheDatabaseIsDown() throws Exception {
        Http http = new Http(port);
        assertThat(http.post("/", "{\"message\":\"up\",\"testId\":1}").statusCode()).isEqualTo(200);

        DATABASE.close();

        for (String path : new String[]{"/", "/batch"}) {
            String body = path.equals("/") ? "{\"message\":\"down\",\"testId\":1}" : "[{\"message\":\"down\",\"testId\":1}]";
            long start = System.nanoTime();
            HttpResponse<String> answer = http.post(path, body);
            // Within the app's connection timeout (2 s) and some; the pool's default would take 30 s.
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
            assertThat(answer.body()).containsAnyOf("\"detail\":\"message not stored",
                    "\"detail\":\"message outcome unknown");
        }
    }
}
