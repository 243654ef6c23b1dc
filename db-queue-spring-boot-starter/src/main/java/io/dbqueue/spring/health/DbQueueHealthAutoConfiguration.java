package io.dbqueue.spring.health;

import io.dbqueue.spring.DbQueueAutoConfiguration;
import io.dbqueue.spring.DbQueueShards;
import io.dbqueue.spring.DbQueues;
import io.dbqueue.spring.QueueDataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/** The {@code dbQueue} health indicator, when the application has Spring Boot's health support (Actuator). */
@AutoConfiguration(after = DbQueueAutoConfiguration.class)
@ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
@ConditionalOnBean(DbQueues.class)
@ConditionalOnEnabledHealthIndicator("dbqueue")
@EnableConfigurationProperties(DbQueueHealthProperties.class)
public class DbQueueHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "dbQueueHealthIndicator")
    public DbQueueHealthIndicator dbQueueHealthIndicator(DbQueues queues, ObjectProvider<QueueDataSource> dataSource,
                                                         ObjectProvider<DbQueueShards> shards,
                                                         DbQueueHealthProperties properties) {
        DbQueueShards sharded = shards.getIfAvailable();
        return sharded != null ? new DbQueueHealthIndicator(queues, sharded, properties)
                : new DbQueueHealthIndicator(queues, dataSource.getObject().dataSource(), properties);
    }
}
