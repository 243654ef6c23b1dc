package io.dbqueue.spring.metrics;

import io.dbqueue.serverwatch.VacuumWatch;
import io.dbqueue.spring.DbQueueAutoConfiguration;
import io.dbqueue.spring.QueueDefinitions;
import io.dbqueue.spring.QueueDepths;
import io.dbqueue.spring.VacuumWatchAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** Micrometer meters for the configured queues, when the application has a {@link MeterRegistry}. */
@AutoConfiguration(after = {DbQueueAutoConfiguration.class, VacuumWatchAutoConfiguration.class},
        afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({MeterRegistry.class, QueueDefinitions.class})
public class DbQueueMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public DbQueueMetrics dbQueueMetrics(MeterRegistry registry, QueueDefinitions definitions) {
        return new DbQueueMetrics(registry, definitions);
    }

    @Bean
    @ConditionalOnMissingBean
    public QueueDepthGauges dbQueueDepthGauges(MeterRegistry registry, QueueDepths depths,
                                               QueueDefinitions definitions) {
        return new QueueDepthGauges(registry, depths, definitions.ids());
    }

    @Bean
    @ConditionalOnBean(VacuumWatch.class)
    @ConditionalOnMissingBean
    public VacuumGauges dbQueueVacuumGauges(MeterRegistry registry, VacuumWatch watch) {
        return new VacuumGauges(registry, watch);
    }
}
