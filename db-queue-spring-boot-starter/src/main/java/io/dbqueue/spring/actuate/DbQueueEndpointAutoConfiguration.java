package io.dbqueue.spring.actuate;

import io.dbqueue.common.Checks;
import io.dbqueue.queue.QueueActivity;
import io.dbqueue.spring.DbQueueAutoConfiguration;
import io.dbqueue.spring.DbQueues;
import io.dbqueue.spring.InvalidQueuePropertyException;
import io.dbqueue.spring.log.DbQueueLogAutoConfiguration;
import io.dbqueue.spring.log.DbQueueTopics;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The Actuator endpoint {@code dbqueue} ({@link DbQueueEndpoint}), when the application has Actuator and exposes
 * the endpoint; with it, a {@link QueueActivity} listener that counts each queue's recent work in this instance.
 */
@AutoConfiguration(after = {DbQueueAutoConfiguration.class, DbQueueLogAutoConfiguration.class})
@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
@ConditionalOnBean(DbQueues.class)
@ConditionalOnAvailableEndpoint(DbQueueEndpoint.class)
@EnableConfigurationProperties(DbQueueEndpointProperties.class)
public class DbQueueEndpointAutoConfiguration {

    /** A listener like any QueueListener bean: the DbQueue gives it every queue's events. */
    @Bean
    @ConditionalOnMissingBean
    public QueueActivity dbQueueActivity() {
        return new QueueActivity();
    }

    @Bean
    @ConditionalOnMissingBean
    public DbQueueEndpoint dbQueueEndpoint(DbQueues queues, ObjectProvider<DbQueueTopics> topics,
                                           QueueActivity activity, DbQueueEndpointProperties properties) {
        InvalidQueuePropertyException.check("dbq.endpoint", () -> {
            Checks.between("recentMinutes", properties.recentMinutes(), 1, QueueActivity.MINUTES);
            return properties;
        });
        return new DbQueueEndpoint(queues, topics.getIfAvailable(), activity, properties);
    }

    @Bean
    @ConditionalOnMissingBean
    public DbQueueWebEndpointExtension dbQueueWebEndpointExtension(DbQueueEndpoint endpoint) {
        return new DbQueueWebEndpointExtension(endpoint);
    }
}
