package io.dbqueue.test;

import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;

/** Spring Boot's DataSource auto-configuration connects with a bean of this type in place of {@code spring.datasource.*}. */
final class TestPostgresConnectionDetails implements JdbcConnectionDetails {

    @Override
    public String getJdbcUrl() {
        return TestPostgres.jdbcUrl();
    }

    @Override
    public String getUsername() {
        return TestPostgres.username();
    }

    @Override
    public String getPassword() {
        return TestPostgres.password();
    }
}
