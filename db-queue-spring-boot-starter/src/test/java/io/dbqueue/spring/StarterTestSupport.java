package io.dbqueue.spring;

import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.Schema;
import io.dbqueue.spring.health.DbQueueHealthAutoConfiguration;
import io.dbqueue.spring.listener.DbQueueListenerAutoConfiguration;
import io.dbqueue.spring.log.DbQueueLogAutoConfiguration;
import io.dbqueue.spring.metrics.DbQueueMetricsAutoConfiguration;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/** A database of its own on the shared test PostgreSQL, a context runner on it, and fresh queue tables. */
final class StarterTestSupport {

    private static final AtomicInteger TABLES = new AtomicInteger();
    private static String jdbcUrl;

    private StarterTestSupport() {
    }

    static synchronized String jdbcUrl() {
        if (jdbcUrl == null) {
            jdbcUrl = PostgresServer.shared().createDatabase("dbq_starter_test");
        }
        return jdbcUrl;
    }

    /** The starter's auto-configurations after Spring Boot's DataSource, pointed at the test database. */
    static ApplicationContextRunner runner() {
        PostgresServer server = PostgresServer.shared();
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        DbQueueAutoConfiguration.class, DbQueueListenerAutoConfiguration.class,
                        VacuumWatchAutoConfiguration.class,
                        DbQueueMetricsAutoConfiguration.class, DbQueueHealthAutoConfiguration.class,
                        DbQueueLogAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=" + jdbcUrl(),
                        "spring.datasource.username=" + server.user(),
                        "spring.datasource.password=" + server.password(),
                        "spring.datasource.hikari.maximum-pool-size=6");
    }

    /** A table name no other test uses, e.g. {@code starter_7}. */
    static String uniqueTable() {
        return "starter_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
    }

    /** Creates a fresh table with {@code layout} and returns its name. */
    static String createTable(Layout layout) {
        return createTable(uniqueTable(), layout);
    }

    /** Creates table {@code name} with {@code layout} and returns its name. */
    static String createTable(String name, Layout layout) {
        try {
            Schema.create(dataSource(), new QueueTable(name, layout));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return name;
    }

    static long count(String sql) {
        PostgresServer server = PostgresServer.shared();
        try (Connection c = DriverManager.getConnection(jdbcUrl(), server.user(), server.password());
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    static void execute(String sql) {
        PostgresServer server = PostgresServer.shared();
        try (Connection c = DriverManager.getConnection(jdbcUrl(), server.user(), server.password());
             Statement st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** Waits until {@code condition} holds, failing after {@code timeout}. */
    static void await(Duration timeout, String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            Thread.sleep(5);
        }
    }

    /** The messages of a start-up failure and all its causes, one a line. */
    static String messages(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            text.append(t.getMessage()).append('\n');
        }
        return text.toString();
    }

    /** A DataSource on the test database, not pooled. */
    static DataSource dataSource() {
        PostgresServer server = PostgresServer.shared();
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setUrl(jdbcUrl());
        ds.setUser(server.user());
        ds.setPassword(server.password());
        return ds;
    }
}
