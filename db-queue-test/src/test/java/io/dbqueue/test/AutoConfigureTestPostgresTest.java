package io.dbqueue.test;

import io.dbqueue.spring.DbQueueTemplate;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/** The properties name a server that does not exist: only the annotation can make the context work. */
@SpringBootTest(properties = {"spring.datasource.url=jdbc:postgresql://127.0.0.1:1/nowhere",
        "spring.datasource.username=nobody", "dbq.initialize-schema=always", "dbq.auto-startup=false",
        "dbq.queues.notes.table=dbq_test_notes", "dbq.queues.notes.layout=dbq_seq"})
@AutoConfigureTestPostgres
class AutoConfigureTestPostgresTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
    }

    @Autowired
    DataSource dataSource;

    @Autowired
    DbQueueTemplate queues;

    @Test
    void theApplicationsDataSourceConnectsToTestPostgres() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            assertThat(c.getMetaData().getURL()).isEqualTo(TestPostgres.jdbcUrl());
            assertThat(c.getMetaData().getUserName()).isEqualTo(TestPostgres.username());
        }
    }

    @Test
    void theStarterKeepsItsQueuesThere() throws SQLException {
        long id = queues.send("notes", "remember the milk");
        try (Connection c = TestPostgres.dataSource().getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT payload FROM dbq_test_notes WHERE id = " + id)) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("remember the milk");
        }
    }
}
