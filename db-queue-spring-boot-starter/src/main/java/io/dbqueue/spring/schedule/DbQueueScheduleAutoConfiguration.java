package io.dbqueue.spring.schedule;

import io.dbqueue.DbQueue;
import io.dbqueue.spring.DbQueueAutoConfiguration;
import io.dbqueue.spring.DbQueueProperties;
import io.dbqueue.spring.EagerAnnotatedBeans;
import io.dbqueue.spring.InvalidQueuePropertyException;
import io.dbqueue.spring.QueueConsumerWorkers;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.LazyInitializationExcludeFilter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** Recurring tasks: {@link DbQueueScheduled} methods and {@code dbq.schedules}, where the starter runs consumers. */
@AutoConfiguration(after = DbQueueAutoConfiguration.class)
@ConditionalOnBean(QueueConsumerWorkers.class)
@EnableConfigurationProperties(DbQueueScheduleProperties.class)
public class DbQueueScheduleAutoConfiguration {

    /** Static: a bean post-processor is made before the beans it looks at. */
    @Bean
    static ScheduledMethods dbQueueScheduledMethods() {
        return new ScheduledMethods();
    }

    @Bean
    static LazyInitializationExcludeFilter dbQueueScheduledBeansEager() {
        return EagerAnnotatedBeans.withMethodsAnnotated(DbQueueScheduled.class);
    }

    @Bean
    ScheduleDefinitions dbQueueScheduleDefinitions(ObjectProvider<DbQueue> door, DbQueueProperties properties,
                                                   DbQueueScheduleProperties schedules, ScheduledMethods methods) {
        // No one door with dbq.shards: schedules are not offered there yet, and fail when there are some.
        return new ScheduleDefinitions(() -> door.getIfAvailable(() -> {
            throw new InvalidQueuePropertyException("dbq.schedules: schedules (and @DbQueueScheduled methods) are not"
                    + " supported with dbq.shards yet: their table would live on one shard of several");
        }), properties, schedules, methods);
    }
}
