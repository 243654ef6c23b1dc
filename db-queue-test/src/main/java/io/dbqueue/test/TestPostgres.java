package io.dbqueue.test;

import io.dbqueue.postgres.PostgresServer;

import javax.sql.DataSource;

/**
 * The PostgreSQL for an application's tests: one per JVM, started on first use and stopped when the JVM
 * exits. By default an embedded PostgreSQL 18 in a temporary directory, started durable (fsync and
 * synchronous_commit on, unlike embedded servers' usual defaults), so a test commits as production does.
 * When the environment variable {@value PostgresServer#JDBC_URL_ENV} is set, that server is used instead,
 * with {@value PostgresServer#USER_ENV} and {@value PostgresServer#PASSWORD_ENV} (default user postgres,
 * no password). In a {@code @SpringBootTest}, {@link AutoConfigureTestPostgres} points the DataSource here.
 */
public final class TestPostgres {

    private static final int POOL_SIZE = 10;
    private static DataSource dataSource;

    private TestPostgres() {
    }

    /** The JDBC URL of its database, e.g. {@code jdbc:postgresql://localhost:41234/postgres?user=postgres}. */
    public static String jdbcUrl() {
        return PostgresServer.shared().jdbcUrl();
    }

    public static String username() {
        return PostgresServer.shared().user();
    }

    public static String password() {
        return PostgresServer.shared().password();
    }

    /** A pool of {@value #POOL_SIZE} connections on {@link #jdbcUrl()}, shared by the JVM's tests: do not close it. */
    public static synchronized DataSource dataSource() {
        if (dataSource == null) {
            dataSource = PostgresServer.shared().dataSource(POOL_SIZE);
        }
        return dataSource;
    }
}
