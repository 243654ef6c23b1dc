package io.dbqueue.spring.observation;

import io.dbqueue.spring.DbQueueAutoConfiguration;
import io.dbqueue.spring.DbQueueCustomizer;
import io.dbqueue.spring.DbQueueProperties;
import io.dbqueue.spring.QueueConsumerDecorator;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * With {@code dbq.observation-enabled}, observes every enqueue of the starter's producers ({@code dbq.enqueue}) and
 * every task its consumers handle ({@code dbq.process}) with the application's {@link ObservationRegistry}; the
 * enqueue's trace context travels to the task's observation in the task's headers.
 */
@AutoConfiguration(after = DbQueueAutoConfiguration.class)
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(DbQueueProperties.class)
@ConditionalOnBooleanProperty(name = "dbq.observation-enabled")
public class DbQueueObservationAutoConfiguration {

    @Bean
    DbQueueCustomizer dbQueueObservedEnqueues(ObjectProvider<ObservationRegistry> registry,
                                              DbQueueProperties properties) {
        return builder -> builder.enqueueInterceptor(new ObservedEnqueues(
                registry.getIfAvailable(() -> ObservationRegistry.NOOP), new QueueNames(properties.configs())));
    }

    @Bean
    QueueConsumerDecorator dbQueueObservedTasks(ObjectProvider<ObservationRegistry> registry,
                                                DbQueueProperties properties) {
        return new ObservedTasks(registry.getIfAvailable(() -> ObservationRegistry.NOOP),
                new QueueNames(properties.configs()));
    }
}
