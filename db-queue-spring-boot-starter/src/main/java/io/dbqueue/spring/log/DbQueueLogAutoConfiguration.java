package io.dbqueue.spring.log;

import io.dbqueue.common.Identifiers;
import io.dbqueue.common.QueueException;
import io.dbqueue.common.Transactions;
import io.dbqueue.log.LogSchema;
import io.dbqueue.log.Topic;
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

import javax.sql.DataSource;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import static io.dbqueue.spring.InvalidQueuePropertyException.check;

/**
 * The log: creates the topics under {@code dbq.log.topics} that do not exist (unless
 * {@code dbq.log.create-topics=false}), exposes their producers through {@link DbQueueTopics}, and
 * runs the application's {@link TopicListener} beans as group members. Application
 * {@link io.dbqueue.log.LogListener} beans observe every member.
 */
@AutoConfiguration(after = DbQueueAutoConfiguration.class)
@ConditionalOnBean(QueueDataSource.class)
@ConditionalOnBooleanProperty(name = "dbq.enabled", matchIfMissing = true)
@EnableConfigurationProperties({DbQueueLogProperties.class, DbQueueProperties.class})
public class DbQueueLogAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @DependsOnDatabaseInitialization
    public DbQueueTopics dbQueueTopics(QueueDataSource queues, DbQueueLogProperties properties,
                                       ObjectProvider<Transactions> transactions) {
        properties.topics().forEach((name, topic) ->
                ensure(queues.dataSource(), name, topic, properties.createTopics()));
        return new DbQueueTopics(queues.dataSource(), properties.topics().keySet(), properties.notifyInterval(),
                transactions.getIfAvailable(() -> Transactions.JDBC));
    }

    private static void ensure(DataSource dataSource, String name, DbQueueLogProperties.TopicProperties topic,
                               boolean create) {
        try {
            Identifiers.topicName(name);
            LogSchema.describe(dataSource, name);
        } catch (IllegalArgumentException e) {
            if (!create || !e.getMessage().startsWith("unknown topic")) {
                throw new IllegalStateException("dbq.log.topics." + name + ": " + e.getMessage(), e);
            }
            Topic created = check("dbq.log.topics." + name, () -> new Topic(name, topic.partitions(), topic.segmentSize()));
            try {
                LogSchema.create(dataSource, created);
            } catch (QueueException raced) {
                LogSchema.describe(dataSource, name); // another instance created it at the same time: it exists now
            }
        }
    }

    @Bean
    @ConditionalOnMissingBean
    public TopicListenerContainers dbQueueTopicListenerContainers(DbQueue door, DbQueueLogProperties properties,
                                                                  DbQueueProperties queueProperties,
                                                                  ObjectProvider<TopicListener> listeners) {
        return new TopicListenerContainers(door, properties, listeners, queueProperties.shutdownTimeout(),
                queueProperties.autoStartup());
    }

    /** The retention of every topic that sets one, run by the {@link DbQueue} once the topics exist. */
    @Bean
    public DbQueueCustomizer dbQueueTopicRetention(DbQueueLogProperties properties, DbQueueTopics topics) {
        return builder -> properties.topics().forEach((topic, t) -> check("dbq.log.topics." + topic,
                () -> t.retention().map(policy -> builder.retention(topic, policy, t.retentionInterval()))));
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
            properties.topics().forEach((topic, t) -> groups.computeIfAbsent(topic, k -> new LinkedHashSet<>())
                    .addAll(t.groups().keySet()));
            listeners.orderedStream().filter(l -> groups.containsKey(l.topic()))
                    .forEach(l -> groups.get(l.topic()).add(l.group()));
            return new TopicLagGauges(registry, topics, groups);
        }
    }
}
