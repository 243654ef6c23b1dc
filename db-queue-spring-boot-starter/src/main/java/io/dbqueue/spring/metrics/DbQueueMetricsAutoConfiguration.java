package io.dbqueue.spring.metrics;

import io.dbqueue.serverwatch.VacuumWatch;
import io.dbqueue.spring.DbQueueAutoConfiguration;
import io.dbqueue.spring.DbQueueProperties;
import io.dbqueue.spring.DbQueues;
import io.dbqueue.spring.VacuumWatchAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters for the configured queues, when the application has a {@link MeterRegistry}. The metrics are a
 * {@code QueueListener} the {@code DbQueue} is built with, so they read depths through {@link DbQueues} only later.
 */
@AutoConfiguration(after = {DbQueueAutoConfiguration.class, VacuumWatchAutoConfiguration.class},
        afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({MeterRegistry.class, DbQueues.class})
public class DbQueueMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public DbQueueMetrics dbQueueMetrics(MeterRegistry registry, DbQueueProperties properties,
                                         ObjectProvider<DbQueues> queues) {
        return new DbQueueMetrics(registry, properties.configs(), id -> queues.getObject().depthNow(id),
                id -> queues.getObject().deadLetterCountNow(id));
    }

    @Bean
    @ConditionalOnBean(VacuumWatch.class)
    @ConditionalOnMissingBean
    public VacuumGauges dbQueueVacuumGauges(MeterRegistry registry, VacuumWatch watch) {
        return new VacuumGauges(registry, watch);
    }
}
