package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.queue.Layout;
import io.dbqueue.spring.health.DbQueueHealthAutoConfiguration;
import io.dbqueue.spring.health.DbQueueHealthIndicator;
import io.dbqueue.spring.metrics.DbQueueMetrics;
import io.dbqueue.spring.metrics.DbQueueMetricsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import javax.sql.DataSource;

import static io.dbqueue.spring.StarterTestSupport.createTable;
import static io.dbqueue.spring.StarterTestSupport.runner;
import static org.assertj.core.api.Assertions.assertThat;

class BackOffTest {

    private final String table = createTable(Layout.DBQ_SEQ);

    private ApplicationContextRunner configured() {
        return runner().withPropertyValues("dbq.queues.main.table=" + table, "dbq.queues.main.layout=dbq_seq");
    }

    @Test
    void registeredForAutoConfiguration() {
        assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).getCandidates())
                .contains(DbQueueAutoConfiguration.class.getName(), DbQueueMetricsAutoConfiguration.class.getName(),
                        DbQueueHealthAutoConfiguration.class.getName());
    }

    @Test
    void theUsersOwnBeansWin() {
        configured().withBean("myQueues", DbQueues.class, () -> new DbQueues((DbQueue) null, new Binder().bindOrCreate("dbq", DbQueueProperties.class), null))
                .run(context -> {
                    assertThat(context).hasSingleBean(DbQueues.class);
                    assertThat(context.getBean(DbQueues.class).ids()).isEmpty();
                });
    }

    @Test
    void disabledByProperty() {
        configured().withPropertyValues("dbq.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(DbQueues.class);
            assertThat(context).doesNotHaveBean(QueueConsumerWorkers.class);
        });
    }

    @Test
    void nothingWithoutADataSource() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DbQueueAutoConfiguration.class))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(DbQueues.class);
                });
    }

    @Test
    void metricsOnlyWithAMeterRegistryAndHealthByDefault() {
        configured().run(context -> {
            assertThat(context).hasSingleBean(DataSource.class);
            assertThat(context).doesNotHaveBean(DbQueueMetrics.class);
            assertThat(context).hasBean("dbQueueHealthIndicator");
        });
        configured().withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> assertThat(context).hasSingleBean(DbQueueMetrics.class));
        configured().withPropertyValues("management.health.dbqueue.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(DbQueueHealthIndicator.class));
    }
}
