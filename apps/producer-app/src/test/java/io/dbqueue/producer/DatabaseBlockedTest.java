package io.dbqueue.producer;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.ObjectMapper;

import javax.sql.DataSource;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A database that holds the producer's statements (here a table lock another session keeps) answers 503 "not
 * stored" after DB_STATEMENT_TIMEOUT_MS, where a request used to wait for as long as the lock was held.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "dbq.initialize-schema=always",
        "dbq.queues.messages.table=producer_blocked_test",
        "dbq.queues.messages.layout=dbq_seq",
        "DB_STATEMENT_TIMEOUT_MS=300"})
class DatabaseBlockedTest {

    private static final String MESSAGE = "{\"message\":\"blocked?\",\"testId\":6}";

    @LocalServerPort
    int port;

    @Autowired
    DataSource dataSource;

    @Autowired
    ObjectMapper json;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        ProducerTestSupport.sharedDatabase(registry);
    }

    @Test
    void aMessageHeldByALockIsAnsweredNotStoredAfterTheStatementTimeout() throws Exception {
        Http http = new Http(port);
        try (Connection holder = dataSource.getConnection(); Statement st = holder.createStatement()) {
            holder.setAutoCommit(false);
            st.execute("LOCK TABLE producer_blocked_test IN ACCESS EXCLUSIVE MODE");
            for (HttpResponse<String> answer : List.of(http.post("/", MESSAGE), http.post("/", MESSAGE, "blocked-1"))) {
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
                assertThat(json.readTree(answer.body()).get("detail").asString()).startsWith("message not stored");
            }
            holder.rollback();
        }
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM producer_blocked_test")) {
            rs.next();
            assertThat(rs.getLong(1)).isZero();
        }
        assertThat(new Http(port).post("/", MESSAGE, "blocked-1").statusCode()).as("once the lock is gone").isEqualTo(200);
    }
}
