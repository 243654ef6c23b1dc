package io.dbqueue.spring;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.RetryPolicy.RetryType;
import io.dbqueue.queue.TaskBatch;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

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
        AtomicInteger configured = new AtomicInteger();
        RecordingConsumer consumer = new RecordingConsumer("main") {
            @Override
            public QueueConfig configure(QueueConfig config) {
                // asked when the context checks its consumers, then at each start: the first start fails
                if (configured.incrementAndGet() == 2) {
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

    /** Spring Boot binds an empty enum value to nothing, so the default stays. */
    @Test
    void anEmptyValueKeepsTheDefault() {
        QueueConfig config = bind("main.table=anywhere", "main.layout=dbq_seq", "main.mode=",
                "main.wakeup=", "main.retry.type=").configs().get("main");
        assertThat(config.mode()).isEqualTo(DeliveryMode.AT_LEAST_ONCE);
        assertThat(config.wakeup()).isEqualTo(Wakeup.POLL);
        assertThat(config.retry().type()).isEqualTo(RetryType.GEOMETRIC);
    }

    @Test
    void retryMaxDelayDefaultsToADayOrTheIntervalWhenLonger() {
        assertThat(bind("main.table=anywhere", "main.layout=dbq_seq", "main.retry.interval=2d").configs().get("main")
                .retry().maxDelay()).isEqualTo(Duration.ofDays(2));
        assertThat(bind("main.table=anywhere", "main.layout=dbq_seq", "main.retry.interval=1s",
                "main.retry.max-delay=5m").configs().get("main").retry().maxDelay()).isEqualTo(Duration.ofMinutes(5));
    }

    /** {@code dbq.queues.<values>} bound as the application would bind them. */
    private static DbQueueProperties bind(String... queueValues) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String value : queueValues) {
            values.put("dbq.queues." + value.substring(0, value.indexOf('=')), value.substring(value.indexOf('=') + 1));
        }
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("dbq", DbQueueProperties.class);
    }

    /** Queues that do not say follow spring.threads.virtual.enabled (on JDK 21 and later); those that say keep it. */
    @Test
    void workersRunOnVirtualThreadsWhenSpringBootsThreadsAreVirtual() {
        String table = createTable(Layout.DBQ_SEQ);
        boolean jdk21 = JavaVersion.getJavaVersion().isEqualOrNewerThan(JavaVersion.TWENTY_ONE);
        assertThat(handlerThreadIsVirtual(table, "main", "spring.threads.virtual.enabled=true"))
                .as("only on JDK 21 and later").isEqualTo(jdk21);
        assertThat(handlerThreadIsVirtual(table, "platform", "spring.threads.virtual.enabled=true",
                "dbq.queues.platform.virtual-threads=false")).isFalse();
        assertThat(handlerThreadIsVirtual(table, "main")).isFalse();
    }

    private static boolean handlerThreadIsVirtual(String table, String id, String... properties) {
        AtomicReference<Thread> handler = new AtomicReference<>();
        RecordingConsumer consumer = new RecordingConsumer(id) {
            @Override
            public void handle(TaskBatch batch) throws Exception {
                handler.set(Thread.currentThread());
                super.handle(batch);
            }
        };
        runner().withPropertyValues("dbq.queues." + id + ".table=" + table, "dbq.queues." + id + ".layout=dbq_seq",
                        "dbq.queues." + id + ".queue-name=" + id + "-threads", "dbq.queues." + id + ".no-task-timeout=10ms")
                .withPropertyValues(properties).withBean(RecordingConsumer.class, () -> consumer).run(context -> {
                    context.getBean(DbQueues.class).producer(id).enqueue("which thread");
                    consumer.awaitHandled(1, Duration.ofSeconds(10));
                });
        return ConsumerTest.isVirtual(handler.get());
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
