package io.dbqueue.spring.schedule;

import io.dbqueue.DbQueue;
import io.dbqueue.spring.DbQueueAutoConfiguration;
import io.dbqueue.spring.DbQueueProperties;
import io.dbqueue.spring.QueueConsumerWorkers;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
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
    SmartLifecycle dbQueueScheduleDefinitions(DbQueue door, DbQueueProperties properties,
                                              DbQueueScheduleProperties schedules, ScheduledMethods methods) {
        return new ScheduleDefinitions(door, properties, schedules, methods);
    }
}
