package io.dbqueue.producer;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.ObjectMapper;

import javax.sql.DataSource;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A message whose commit was sent when the connection died is answered "outcome unknown, retry with
 * the same Idempotency-Key", never "not stored". The app's backend is held inside its COMMIT by a
 * deferred constraint trigger that waits for an advisory lock the test holds, and terminated there.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "dbq.initialize-schema=always",
        "dbq.queues.messages.table=producer_commit_test",
        "dbq.queues.messages.layout=dbq_seq"})
class CommitLostTest {

    private static final long LOCK = 727_002;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String MESSAGE = "{\"message\":\"lost?\",\"testId\":5}";

    @LocalServerPort
    int port;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    DataSource dataSource;

    @Autowired
    ObjectMapper json;

    Http http;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        ProducerTestSupport.sharedDatabase(registry);
    }

    @BeforeEach
    void emptyTable() {
        http = new Http(port);
        jdbc.sql("DROP TRIGGER IF EXISTS hold ON producer_commit_test").update();
        jdbc.sql("DELETE FROM producer_commit_test").update();
        jdbc.sql("DELETE FROM producer_commit_test_keys").update();
        jdbc.sql("CREATE OR REPLACE FUNCTION producer_test_wait_for_lock() RETURNS trigger LANGUAGE plpgsql"
                + " AS $$ BEGIN PERFORM pg_advisory_xact_lock(" + LOCK + "); RETURN NULL; END $$").update();
    }

    @Test
    void aMessageLostInItsCommitIsAnsweredAsUnknownAndItsRetryStoresItOnce() throws Exception {
        jdbc.sql("CREATE CONSTRAINT TRIGGER hold AFTER INSERT ON producer_commit_test DEFERRABLE INITIALLY DEFERRED"
                + " FOR EACH ROW EXECUTE FUNCTION producer_test_wait_for_lock()").update();
        HttpResponse<String> keyed = terminatedInCommit(() -> http.post("/", MESSAGE, "lost-1"));
        assertUnknown(keyed, "Retry with the same Idempotency-Key 'lost-1'");
        HttpResponse<String> unkeyed = terminatedInCommit(() -> http.post("/", MESSAGE));
        assertUnknown(unkeyed, "without one, a retry may store it twice");

        jdbc.sql("DROP TRIGGER hold ON producer_commit_test").update();
        HttpResponse<String> retry = http.post("/", MESSAGE, "lost-1");
        assertThat(retry.statusCode()).as(retry.body()).isEqualTo(200);
        assertThat(http.post("/", MESSAGE, "lost-1").body()).as("and once only").isEqualTo(retry.body());
        assertThat(jdbc.sql("SELECT count(*) FROM producer_commit_test").query(Long.class).single()).isEqualTo(1);
    }

    @Test
    void aMessageThatFailedBeforeItsCommitIsAnsweredNotStored() throws Exception {
        jdbc.sql("CREATE OR REPLACE FUNCTION producer_test_refuse() RETURNS trigger LANGUAGE plpgsql"
                + " AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$").update();
        jdbc.sql("CREATE TRIGGER hold BEFORE INSERT ON producer_commit_test FOR EACH ROW"
                + " EXECUTE FUNCTION producer_test_refuse()").update();
        for (HttpResponse<String> answer : List.of(http.post("/", MESSAGE, "refused-1"), http.post("/", MESSAGE))) {
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
            assertThat(answer.headers().firstValue("Content-Type")).contains("application/problem+json");
            assertThat(json.readTree(answer.body()).get("detail").asString()).startsWith("message not stored");
        }
    }

    private void assertUnknown(HttpResponse<String> answer, String retry) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
        assertThat(answer.headers().firstValue("Content-Type")).contains("application/problem+json");
        assertThat(json.readTree(answer.body()).get("detail").asString())
                .startsWith("message outcome unknown").contains("may or may not have been stored").contains(retry)
                .doesNotContain("not stored");
    }

    /** The answer to {@code request} once the app's backend, waiting in its COMMIT for the test's lock, is terminated. */
    private HttpResponse<String> terminatedInCommit(Callable<HttpResponse<String>> request) throws Exception {
        String waiting = " FROM pg_locks WHERE locktype = 'advisory' AND objid = " + LOCK + " AND NOT granted";
        try (Connection holder = dataSource.getConnection(); Statement st = holder.createStatement()) {
            st.execute("SELECT pg_advisory_lock(" + LOCK + ")");
            try {
                CompletableFuture<HttpResponse<String>> answer = CompletableFuture.supplyAsync(() -> {
                    try {
                        return request.call();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                long deadline = System.nanoTime() + TIMEOUT.toNanos();
                while (jdbc.sql("SELECT count(*)" + waiting).query(Long.class).single() == 0) {
                    assertThat(System.nanoTime()).as("the app's commit waits for the lock").isLessThan(deadline);
                    Thread.sleep(5); // polls a condition, bounded by the deadline
                }
                st.execute("SELECT pg_terminate_backend(pid)" + waiting);
                return answer.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } finally {
                st.execute("SELECT pg_advisory_unlock(" + LOCK + ")");
            }
        }
    }
}
