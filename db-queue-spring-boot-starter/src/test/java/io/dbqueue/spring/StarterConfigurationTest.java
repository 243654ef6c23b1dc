package io.dbqueue.spring;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.RetryPolicy.RetryType;
import io.dbqueue.queue.Wakeup;
import io.dbqueue.spring.log.TopicListenerContainers;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.system.JavaVersion;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.dbqueue.spring.StarterTestSupport.count;
import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The starter's configuration beyond the queues' own values: start-up, phase, threads, which DataSource. */
class StarterConfigurationTest {

    @Test
    void everyLayoutPresetCanBeNamedInProperties() {
        assertThat(Arrays.stream(QueueLayout.values()).map(QueueLayout::layout))
                .containsExactlyElementsOf(Layout.presets());
    }

    @Test
    void withAutoStartupOffTheWorkersStartOnlyWhenAsked() {
        String table = createTable(Layout.DBQ_SEQ);
        RecordingConsumer consumer = new RecordingConsumer("main");
        runner().withPropertyValues("dbq.auto-startup=false", "dbq.queues.main.table=" + table,
                        "dbq.queues.main.layout=dbq_seq", "dbq.queues.main.no-task-timeout=10ms")
                .withBean(RecordingConsumer.class, () -> consumer)
                .run(context -> {
                    QueueConsumerWorkers workers = context.getBean(QueueConsumerWorkers.class);
                    context.getBean(DbQueues.class).producer("main").enqueue("waits");
                    assertThat(workers.isRunning()).isFalse();
                    assertThat(workers.workers("main")).isEmpty();
                    assertThat(count("SELECT count(*) FROM " + table)).isEqualTo(1);

                    workers.start();
                    consumer.awaitHandled(1, Duration.ofSeconds(10));
                    assertThat(consumer.handled()).containsExactly("waits");
                });
    }

    @Test
    void aStartThatFailedLeavesNothingRunningAndCanBeTriedAgain() {
        String table = createTable(Layout.DBQ_SEQ);
        AtomicBoolean failNextStart = new AtomicBoolean(true);
        RecordingConsumer consumer = new RecordingConsumer("main") {
            @Override
            public QueueConfig configure(QueueConfig config) {
                if (failNextStart.getAndSet(false)) {
                    throw new IllegalStateException("not yet");
                }
                return config;
            }
        };
        runner().withPropertyValues("dbq.auto-startup=false", "dbq.queues.main.table=" + table,
                        "dbq.queues.main.layout=dbq_seq", "dbq.queues.main.no-task-timeout=10ms")
                .withBean(RecordingConsumer.class, () -> consumer)
                .run(context -> {
                    QueueConsumerWorkers workers = context.getBean(QueueConsumerWorkers.class);
                    assertThatThrownBy(workers::start).hasMessage("not yet");
                    assertThat(workers.isRunning()).isFalse();

                    workers.start();
                    context.getBean(DbQueues.class).producer("main").enqueue("second start");
                    consumer.awaitHandled(1, Duration.ofSeconds(10));
                    assertThat(workers.isRunning()).isTrue();
                });
    }

    @Test
    void consumersStopAfterTheWebServersGracefulShutdown() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq").run(context -> {
            // Lifecycles stop from the highest phase down: the graceful shutdown's first, then the workers.
            assertThat(context.getBean(QueueConsumerWorkers.class).getPhase())
                    .isEqualTo(DbQueueAutoConfiguration.PHASE)
                    .isLessThan(WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE);
            assertThat(context.getBean(TopicListenerContainers.class).getPhase()).isEqualTo(DbQueueAutoConfiguration.PHASE);
        });
    }

    @Test
    void queuesThatDoNotSayFollowTheVirtualThreadsDefault() {
        DbQueueProperties properties = bind("main.table=anywhere", "main.layout=dbq_seq",
                "platform.table=anywhere", "platform.layout=dbq_seq",
                "platform.virtual-threads=false");
        QueueDefinitions definitions = QueueDefinitions.of(properties, true);
        assertThat(definitions.get("main").virtualThreads()).isTrue();
        assertThat(definitions.get("platform").virtualThreads()).isFalse();
        assertThat(QueueDefinitions.of(properties, false).get("main").virtualThreads()).isFalse();
    }

    /** Spring Boot binds an empty enum value to nothing, so the default stays. */
    @Test
    void anEmptyValueKeepsTheDefault() {
        QueueConfig config = QueueDefinitions.of(bind("main.table=anywhere", "main.layout=dbq_seq", "main.mode=",
                "main.wakeup=", "main.retry.type="), false).get("main").config();
        assertThat(config.mode()).isEqualTo(DeliveryMode.AT_LEAST_ONCE);
        assertThat(config.wakeup()).isEqualTo(Wakeup.POLL);
        assertThat(config.retry().type()).isEqualTo(RetryType.GEOMETRIC);
    }

    @Test
    void retryMaxDelayDefaultsToADayOrTheIntervalWhenLonger() {
        assertThat(QueueDefinitions.of(bind("main.table=anywhere", "main.layout=dbq_seq", "main.retry.interval=2d"),
                false).get("main").config().retry().maxDelay()).isEqualTo(Duration.ofDays(2));
        assertThat(QueueDefinitions.of(bind("main.table=anywhere", "main.layout=dbq_seq", "main.retry.interval=1s",
                "main.retry.max-delay=5m"), false).get("main").config().retry().maxDelay())
                .isEqualTo(Duration.ofMinutes(5));
    }

    /** {@code dbq.queues.<values>} bound as the application would bind them. */
    private static DbQueueProperties bind(String... queueValues) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String value : queueValues) {
            values.put("dbq.queues." + value.substring(0, value.indexOf('=')), value.substring(value.indexOf('=') + 1));
        }
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("dbq", DbQueueProperties.class);
    }

    @Test
    void workersRunOnVirtualThreadsWhenSpringBootsThreadsAreVirtual() {
        String table = createTable(Layout.DBQ_SEQ);
        boolean jdk21 = JavaVersion.getJavaVersion().isEqualOrNewerThan(JavaVersion.TWENTY_ONE);
        runner().withPropertyValues("spring.threads.virtual.enabled=true",
                "dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq",
                "dbq.queues.platform.table=" + table, "dbq.queues.platform.layout=dbq_seq",
                "dbq.queues.platform.virtual-threads=false").run(context -> {
            QueueDefinitions definitions = context.getBean(QueueDefinitions.class);
            assertThat(definitions.get("main").virtualThreads()).as("only on JDK 21 and later").isEqualTo(jdk21);
            assertThat(definitions.get("platform").virtualThreads()).isFalse();
        });
        runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq").run(context ->
                assertThat(context.getBean(QueueDefinitions.class).get("main").virtualThreads()).isFalse());
    }

    @Test
    void theDataSourceMarkedDbQueueDataSourceHoldsTheQueues() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withUserConfiguration(TwoDataSources.class, MarkedQueues.class)
                .withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(QueueDataSource.class).dataSource())
                            .isSameAs(context.getBean("queues", DataSource.class));
                    context.getBean(DbQueues.class).producer("main").enqueue("in the marked database");
                    assertThat(count("SELECT count(*) FROM " + table)).isEqualTo(1);
                });
    }

    @Test
    void withTwoDataSourcesTheStarterTakesThePrimaryOrFailsNamingThem() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withUserConfiguration(TwoDataSources.class, PrimaryQueues.class)
                .withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq")
                .run(context -> assertThat(context.getBean(QueueDataSource.class).dataSource())
                        .isSameAs(context.getBean("queues", DataSource.class)));
        runner().withUserConfiguration(TwoDataSources.class, UnmarkedQueues.class)
                .withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq")
                .run(context -> assertThat(context).getFailure().hasRootCauseMessage("dbq.queues are configured, but "
                        + "the application has several DataSources [reporting, queues] and none is @Primary or marked"
                        + " @DbQueueDataSource: mark the one that holds the queues @DbQueueDataSource"));
        runner().withUserConfiguration(TwoDataSources.class, UnmarkedQueues.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(DbQueues.class);
        });
    }

    @Test
    void anApplicationsOwnQueueDataSourceChoosesAmongSeveral() {
        String table = createTable(Layout.DBQ_SEQ);
        runner().withUserConfiguration(TwoDataSources.class, UnmarkedQueues.class)
                .withBean(QueueDataSource.class, () -> new QueueDataSource(StarterTestSupport.dataSource()))
                .withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq")
                .run(context -> {
                    context.getBean(DbQueues.class).producer("main").enqueue("chosen by the application");
                    assertThat(count("SELECT count(*) FROM " + table)).isEqualTo(1);
                });
    }

    /** A second DataSource that must not be used: its server does not exist. */
    @Configuration(proxyBeanMethods = false)
    static class TwoDataSources {

        @Bean
        DataSource reporting() {
            PGSimpleDataSource nowhere = new PGSimpleDataSource();
            nowhere.setUrl("jdbc:postgresql://127.0.0.1:1/nowhere");
            return nowhere;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MarkedQueues {

        @Bean
        @DbQueueDataSource
        DataSource queues() {
            return StarterTestSupport.dataSource();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PrimaryQueues {

        @Bean
        @Primary
        DataSource queues() {
            return StarterTestSupport.dataSource();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UnmarkedQueues {

        @Bean
        DataSource queues() {
            return StarterTestSupport.dataSource();
        }
    }
}
