package io.dbqueue.test;

import io.dbqueue.postgres.PostgresServer;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

class TestPostgresTest {

    private static final String EXTERNAL = PostgresServer.JDBC_URL_ENV;

    @Test
    void theUrlAndTheSharedPoolReachTheSameDatabase() throws SQLException {
        String server = "SELECT pg_postmaster_start_time() || ' ' || current_setting('port') || ' ' || current_database()";
        try (Connection direct = DriverManager.getConnection(TestPostgres.jdbcUrl(), TestPostgres.username(),
                TestPostgres.password()); Connection pooled = TestPostgres.dataSource().getConnection()) {
            assertThat(query(pooled, server)).isEqualTo(query(direct, server));
        }
        assertThat(TestPostgres.dataSource()).isSameAs(TestPostgres.dataSource());
    }

    /** With DBQ_JDBC_URL set the server is the one it names; without, a durable embedded PostgreSQL 18. */
    @Test
    void theServerIsTheExternalOneOrADurableEmbeddedPostgres18() throws SQLException {
        String external = System.getenv(EXTERNAL);
        if (external != null && !external.isBlank()) {
            assertThat(TestPostgres.jdbcUrl()).isEqualTo(external);
            return;
        }
        try (Connection c = TestPostgres.dataSource().getConnection()) {
            assertThat(Integer.parseInt(query(c, "SHOW server_version_num"))).isGreaterThanOrEqualTo(180000);
            assertThat(query(c, "SHOW fsync")).isEqualTo("on");
            assertThat(query(c, "SHOW synchronous_commit")).isEqualTo("on");
        }
    }

    private static String query(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
