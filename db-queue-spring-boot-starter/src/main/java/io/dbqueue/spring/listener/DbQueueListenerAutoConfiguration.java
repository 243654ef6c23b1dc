package io.dbqueue.spring.listener;

import io.dbqueue.spring.DbQueueAutoConfiguration;
import io.dbqueue.spring.EagerAnnotatedBeans;
import io.dbqueue.spring.QueueConsumerWorkers;
import org.springframework.boot.LazyInitializationExcludeFilter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.context.annotation.Bean;

/** Makes {@link DbQueueListener} methods consumers, where the starter runs consumers. */
@AutoConfiguration(after = DbQueueAutoConfiguration.class)
@ConditionalOnBean(QueueConsumerWorkers.class)
public class DbQueueListenerAutoConfiguration {

    /** Static: a bean post-processor is made before the beans it looks at. */
    @Bean
    static DbQueueListenerRegistrar dbQueueListenerRegistrar() {
        return new DbQueueListenerRegistrar();
    }

    @Bean
    static LazyInitializationExcludeFilter dbQueueListenerBeansEager() {
        return EagerAnnotatedBeans.withMethodsAnnotated(DbQueueListener.class);
    }
}
