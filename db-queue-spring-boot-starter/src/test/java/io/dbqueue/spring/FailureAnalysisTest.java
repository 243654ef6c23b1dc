package io.dbqueue.spring;

import io.dbqueue.postgres.PostgresServer;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.spring.listener.DbQueueListener;
import io.dbqueue.spring.listener.DbQueueListenerAutoConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import java.util.ArrayList;
import java.util.List;

import static io.dbqueue.spring.StarterTestSupport.createTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A configuration error of the starter ends in Spring Boot's "APPLICATION FAILED TO START" box, its description and
 * action naming what is wrong and the configured queue ids, not in a stack trace.
 */
@ExtendWith(OutputCaptureExtension.class)
class FailureAnalysisTest {

    private static final String TABLE = createTable(Layout.DBQ_SEQ);

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DataSourceAutoConfiguration.class, DbQueueAutoConfiguration.class,
            DbQueueListenerAutoConfiguration.class})
    static class App {
    }

    record TypoSender(@Qualifier("ordres") QueueProducer producer) {
    }

    @Import(TypoSender.class)
    static class QualifierTypo extends App {
    }

    static class TypoListener {
        @DbQueueListener(queue = "ordres")
        void handle(String message) {
        }
    }

    @Import(TypoListener.class)
    static class ListenerTypo extends App {
    }

    static class OrdersListener {
        @DbQueueListener(queue = "orders")
        void handle(String message) {
        }
    }

    @Import(OrdersListener.class)
    static class WithListener extends App {
    }

    static class TwoParameters {
        @DbQueueListener(queue = "orders")
        void handle(String message, String extra) {
        }
    }

    @Import(TwoParameters.class)
    static class WithBadListener extends App {
    }

    /** Spring Boot's logging system left alone: the other tests of this JVM keep their log format. */
    @BeforeAll
    static void noLoggingSystem() {
        System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
    }

    @AfterAll
    static void loggingSystemBack() {
        System.clearProperty(LoggingSystem.SYSTEM_PROPERTY);
    }

    private static void start(Class<?> app, String... properties) {
        PostgresServer server = PostgresServer.shared();
        List<String> all = new ArrayList<>(List.of("spring.datasource.url=" + StarterTestSupport.jdbcUrl(),
                "spring.datasource.username=" + server.user(), "spring.datasource.password=" + server.password(),
                "dbq.queues.orders.table=" + TABLE, "dbq.queues.orders.layout=dbq_seq",
                "dbq.queues.audit.table=" + TABLE, "dbq.queues.audit.layout=dbq_seq"));
        all.addAll(List.of(properties));
        assertThatThrownBy(() -> new SpringApplicationBuilder(app).web(WebApplicationType.NONE)
                .properties(all.toArray(String[]::new)).run().close()).isInstanceOf(RuntimeException.class);
    }

    @Test
    void aQualifierNamingNoQueueListsTheConfiguredIds(CapturedOutput output) {
        start(QualifierTypo.class);

        assertThat(output.getAll()).contains("APPLICATION FAILED TO START", "@Qualifier(\"ordres\") on parameter 0 of"
                + " constructor in " + TypoSender.class.getName() + " names queue id 'ordres', which is not configured"
                + " under dbq.queues (configured: [orders, audit])", "Action:",
                "Name one of the configured queue ids [orders, audit], or configure queue 'ordres' with"
                        + " dbq.queues.ordres.table");
    }

    @Test
    void aListenerNamingNoQueueListsTheConfiguredIds(CapturedOutput output) {
        start(ListenerTypo.class);

        assertThat(output.getAll()).contains("APPLICATION FAILED TO START", "names queue id 'ordres', which is not"
                + " configured", "Name one of the configured queue ids [orders, audit]");
        assertThat(output.getAll()).contains("@DbQueueListener").doesNotContain("\tat io.dbqueue");
    }

    @Test
    void aBadValueNamesItsProperty(CapturedOutput output) {
        start(App.class, "dbq.queues.orders.batch-size=0");

        assertThat(output.getAll()).contains("APPLICATION FAILED TO START",
                "Invalid db-queue configuration: dbq.queues.orders.batch-size must be between 1 and 10000, was 0");
    }

    @Test
    void aListenerItCannotCallIsNamed(CapturedOutput output) {
        start(WithBadListener.class);

        assertThat(output.getAll()).contains("APPLICATION FAILED TO START", "Invalid db-queue consumer: @DbQueueListener"
                + " method " + TwoParameters.class.getName() + ".handle must take one parameter");
    }

    /** Not Spring's report of a missing bean, which would not say which property named it. */
    @Test
    void aMissingExecutorBeanNamesItsProperty(CapturedOutput output) {
        start(WithListener.class, "dbq.queues.orders.executor=noSuchBean");

        assertThat(output.getAll()).contains("APPLICATION FAILED TO START",
                "Invalid db-queue configuration: dbq.queues.orders.executor names 'noSuchBean', which is not an"
                        + " Executor bean of this application");
    }

    @Test
    void aMissingTableSaysHowToCreateIt(CapturedOutput output) {
        start(App.class, "dbq.queues.audit.table=no_such_table", "dbq.initialize-schema=never");

        assertThat(output.getAll()).contains("APPLICATION FAILED TO START",
                "dbq.queues.audit.table: table 'no_such_table' does not exist", "Action:",
                "Create the queue's tables in a migration (Flyway, Liquibase) from its layout's DDL, or let the starter"
                        + " create them at start-up with dbq.initialize-schema=always.");
    }
}
