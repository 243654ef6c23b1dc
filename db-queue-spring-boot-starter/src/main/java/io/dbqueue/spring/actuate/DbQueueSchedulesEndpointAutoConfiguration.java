package io.dbqueue.spring.actuate;

import io.dbqueue.DbQueue;
import io.dbqueue.spring.DbQueueAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The Actuator endpoint {@code dbqueueschedules} ({@link DbQueueSchedulesEndpoint}), when the application has
 * Actuator and exposes the endpoint; its writes follow {@code dbq.endpoint.write-enabled}, as {@code dbqueue}'s do.
 */
@AutoConfiguration(after = DbQueueAutoConfiguration.class)
@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
@ConditionalOnBean(DbQueue.class)
@ConditionalOnAvailableEndpoint(DbQueueSchedulesEndpoint.class)
@EnableConfigurationProperties(DbQueueEndpointProperties.class)
public class DbQueueSchedulesEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public DbQueueSchedulesEndpoint dbQueueSchedulesEndpoint(DbQueue door, DbQueueEndpointProperties properties) {
        return new DbQueueSchedulesEndpoint(door, properties);
    }

    @Bean
    @ConditionalOnMissingBean
    public DbQueueSchedulesWebEndpointExtension dbQueueSchedulesWebEndpointExtension(DbQueueSchedulesEndpoint endpoint) {
        return new DbQueueSchedulesWebEndpointExtension(endpoint);
    }
}
