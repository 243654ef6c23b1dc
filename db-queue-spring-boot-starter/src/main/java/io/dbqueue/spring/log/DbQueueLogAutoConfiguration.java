package io.dbqueue.spring.log;

import io.dbqueue.DbQueue;
import io.dbqueue.spring.DbQueueAutoConfiguration;
import io.dbqueue.spring.DbQueueCustomizer;
import io.dbqueue.spring.DbQueueProperties;
import io.dbqueue.spring.QueueDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import static io.dbqueue.spring.InvalidQueuePropertyException.check;

/**
 * The log: the topics under {@code dbq.log.topics} ({@link DbQueueTopics}), their retention and notify interval in
 * the {@link DbQueue}, and the application's {@link TopicListener} beans run as group members. Application
 * {@link io.dbqueue.log.LogListener} beans observe every member.
 */
@AutoConfiguration(after = DbQueueAutoConfiguration.class)
@ConditionalOnBean(QueueDataSource.class)
@ConditionalOnBooleanProperty(name = "dbq.enabled", matchIfMissing = true)
@EnableConfigurationProperties({DbQueueLogProperties.class, DbQueueProperties.class})
public class DbQueueLogAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @DependsOnDatabaseInitialization
    public DbQueueTopics dbQueueTopics(QueueDataSource queues, DbQueueLogProperties properties,
                                       ObjectProvider<DbQueue> door) {
        return new DbQueueTopics(queues.dataSource(), properties, door::getObject);
    }

    @Bean
    @ConditionalOnMissingBean
    public TopicListenerContainers dbQueueTopicListenerContainers(DbQueue door, DbQueueLogProperties properties,
                                                                  DbQueueProperties queueProperties,
                                                                  ObjectProvider<TopicListener> listeners) {
        return new TopicListenerContainers(door, properties, listeners, queueProperties.shutdownTimeout(),
                queueProperties.autoStartup());
    }

    /** The topics' notify interval, and the retention of every topic that sets one, once the topics exist. */
    @Bean
    public DbQueueCustomizer dbQueueLogCustomizer(DbQueueLogProperties properties, DbQueueTopics topics) {
        return builder -> {
            check("dbq.log", () -> builder.topicNotifyInterval(properties.notifyInterval()));
            properties.topics().forEach((topic, t) -> check("dbq.log.topics." + topic,
                    () -> t.retention().map(policy -> builder.retention(topic, policy, t.retentionInterval()))));
        };
    }

    /** Lag gauges, when the application has a {@link MeterRegistry}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(MeterRegistry.class)
    static class LagMetrics {

        @Bean
        @ConditionalOnMissingBean
        TopicLagGauges dbQueueTopicLagGauges(MeterRegistry registry, DbQueueTopics topics,
                                             DbQueueLogProperties properties, ObjectProvider<TopicListener> listeners) {
            Map<String, Set<String>> groups = new LinkedHashMap<>();
            properties.topics().forEach((topic, t) -> groups.put(topic, new LinkedHashSet<>(t.groups().keySet())));
            listeners.orderedStream().filter(l -> groups.containsKey(l.topic()))
                    .forEach(l -> groups.get(l.topic()).add(l.group()));
            return new TopicLagGauges(registry, topics, groups);
        }
    }
}
