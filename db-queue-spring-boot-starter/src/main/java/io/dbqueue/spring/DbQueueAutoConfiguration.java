package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.common.Transactions;
import io.dbqueue.log.LogListener;
import io.dbqueue.maintenance.VacuumPolicy;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.QueueListener;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.boot.thread.Threading;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.ResourceTransactionManager;
import org.springframework.transaction.support.TransactionSynchronizationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import tools.jackson.databind.json.JsonMapper;

import javax.sql.DataSource;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The queues of {@code dbq.queues} through one {@link DbQueue}: {@link DbQueues}, and the workers of the
 * {@link QueueConsumer} beans; {@link QueueListener} beans observe every queue. Active with one (or a primary)
 * DataSource, one marked {@link DbQueueDataSource}, or a {@link QueueDataSource} bean; with queues configured and none
 * of these, start-up fails saying which to add.
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class)
@Conditional(DbQueueAutoConfiguration.QueueDataSourceCondition.class)
@ConditionalOnBooleanProperty(name = "dbq.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DbQueueProperties.class)
@Import(DbQueueShardsConfiguration.class)
public class DbQueueAutoConfiguration {

    /**
     * The consumers' phase: one below the web server's graceful shutdown ({@code DEFAULT_PHASE - 1024}), so they stop
     * after the requests in progress, handlers that call the application's own endpoints included.
     */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1025;

    static final class QueueDataSourceCondition extends AnyNestedCondition {

        QueueDataSourceCondition() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnSingleCandidate(DataSource.class)
        static final class SingleDataSource {
        }

        @ConditionalOnBean(value = DataSource.class, annotation = DbQueueDataSource.class)
        static final class MarkedDataSource {
        }

        @ConditionalOnBean(QueueDataSource.class)
        static final class ApplicationsQueueDataSource {
        }

        /** Queues configured but no DataSource to hold them: on, so that start-up fails saying so. */
        @Conditional(QueuesConfigured.class)
        static final class Queues {
        }
    }

    static final class QueuesConfigured extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return !DbQueueProperties.queueIds(context.getEnvironment()).isEmpty()
                    ? ConditionOutcome.match("dbq.queues is configured")
                    : ConditionOutcome.noMatch("dbq.queues is empty");
        }
    }

    @Bean
    @Conditional(ShardsCondition.None.class)
    @ConditionalOnMissingBean
    public QueueDataSource dbQueueDataSource(@DbQueueDataSource ObjectProvider<DataSource> marked,
                                             ObjectProvider<DataSource> dataSources, ListableBeanFactory beans) {
        DataSource chosen = marked.getIfAvailable(dataSources::getIfUnique);
        if (chosen == null) {
            List<String> names = List.of(beans.getBeanNamesForType(DataSource.class));
            throw new IllegalStateException("dbq.queues are configured, but " + (names.isEmpty()
                    ? "the application has no DataSource"
                    : "the application has several DataSources " + names + " and none is @Primary or marked "
                    + "@DbQueueDataSource: mark the one that holds the queues @DbQueueDataSource"));
        }
        return new QueueDataSource(chosen);
    }

    /** Exactly-once batches run in the application's transaction manager when it manages the queues' DataSource. */
    @Bean
    @Conditional(ShardsCondition.None.class)
    @ConditionalOnMissingBean
    public Transactions dbQueueTransactions(QueueDataSource queues, ObjectProvider<PlatformTransactionManager> managers) {
        return transactions(queues.dataSource(), managers);
    }

    /** The application's transaction manager when it manages {@code dataSource}, else a JDBC one on it. */
    static Transactions transactions(DataSource dataSource, ObjectProvider<PlatformTransactionManager> managers) {
        PlatformTransactionManager manager = managers.getIfUnique();
        return new SpringTransactions(manager != null && manages(manager, dataSource) ? manager
                : new DataSourceTransactionManager(dataSource));
    }

    /** A JDBC manager's resource is the DataSource; JPA's and Hibernate's managers expose theirs as getDataSource(). */
    private static boolean manages(PlatformTransactionManager manager, DataSource dataSource) {
        Object target = TransactionSynchronizationUtils.unwrapResourceIfNecessary(dataSource);
        if (manager instanceof ResourceTransactionManager resources
                && TransactionSynchronizationUtils.unwrapResourceIfNecessary(resources.getResourceFactory()) == target) {
            return true;
        }
        Method getter = ClassUtils.getMethodIfAvailable(manager.getClass(), "getDataSource");
        Object exposed = getter == null ? null : ReflectionUtils.invokeMethod(getter, manager);
        return exposed instanceof DataSource ds
                && TransactionSynchronizationUtils.unwrapResourceIfNecessary(QueueDataSource.unwrapped(ds)) == target;
    }

    /** Built after Flyway, Liquibase and spring.sql.init: a migration may create the queue tables it checks. */
    @Bean
    @Conditional(ShardsCondition.None.class)
    @ConditionalOnMissingBean
    @DependsOnDatabaseInitialization
    public DbQueue dbQueue(QueueDataSource queues, DbQueueProperties properties, Transactions transactions,
                           ObjectProvider<QueueListener> listeners, ObjectProvider<LogListener> logListeners,
                           ObjectProvider<DbQueueCustomizer> customizers) {
        Map<String, QueueConfig> configs = properties.configs();
        ShardPlacement.checkUnsharded(properties);
        QueueTables.ensure(queues.dataSource(), configs, properties.initializeSchema());
        DbQueue.Builder builder = DbQueue.builder(queues.dataSource());
        configure(builder, properties, configs, transactions, listeners, logListeners, customizers);
        return builder.build();
    }

    /** Sets up a door as the {@code dbq} properties, the listeners and the customizers say; each shard's alike. */
    static void configure(DbQueue.Builder builder, DbQueueProperties properties, Map<String, QueueConfig> configs,
                          Transactions transactions, ObjectProvider<QueueListener> listeners,
                          ObjectProvider<LogListener> logListeners, ObjectProvider<DbQueueCustomizer> customizers) {
        InvalidQueuePropertyException.check("dbq", () -> builder
                .transactions(transactions).listener(QueueListener.composite(listeners.orderedStream().toList()))
                .logListener(LogListener.composite(logListeners.orderedStream().toList()))
                .notifyInterval(properties.notifyInterval()).shutdownTimeout(properties.shutdownTimeout())
                .idempotencyKeyRetention(properties.idempotencyKeyRetention())
                .failureLogging(properties.failureLogging()));
        Map<QueueTable, VacuumPolicy> vacuum = new LinkedHashMap<>(); // the first queue on a table sets its vacuum
        configs.forEach((id, config) -> vacuum.putIfAbsent(config.location().table(),
                properties.queues().get(id).vacuumPolicy(id)));
        vacuum.forEach(builder::vacuum);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
    }

    /** Closes the {@link DbQueue} as the context stops, in the phase after the consumers': below {@link #PHASE}. */
    @Bean
    @Conditional(ShardsCondition.None.class)
    public SmartLifecycle dbQueueClose(DbQueue door) {
        return new DoorClose(door::close);
    }

    /** The application's one door holds every queue. */
    @Bean
    @Conditional(ShardsCondition.None.class)
    @ConditionalOnMissingBean
    public QueueDoors dbQueueDoors(DbQueue door) {
        return queue -> door;
    }

    @Bean
    @ConditionalOnMissingBean
    public QueueConsumerWorkers dbQueueConsumerWorkers(QueueDoors doors, DbQueueProperties properties,
                                                       ObjectProvider<QueueConsumer> consumers, BeanFactory beans,
                                                       Environment environment,
                                                       ObjectProvider<QueueConsumerDecorator> decorators) {
        return new QueueConsumerWorkers(doors, properties, consumers, beans, Threading.VIRTUAL.isActive(environment),
                decorators.orderedStream().toList());
    }

    @Bean
    @ConditionalOnMissingBean
    public DbQueues dbQueues(QueueDoors doors, DbQueueProperties properties, QueueConsumerWorkers consumers) {
        return new DbQueues(doors, properties, consumers);
    }

    /** Sends messages of any type to the configured queues, through the {@link PayloadSerializer}. */
    @Bean
    @ConditionalOnMissingBean
    public DbQueueTemplate dbQueueTemplate(DbQueues queues, ObjectProvider<PayloadSerializer> serializers) {
        return new DbQueueTemplate(queues, serializers.getIfAvailable(() -> PayloadSerializer.STRINGS));
    }

    /** Jackson 3's JsonMapper, Spring Boot's own when it has one, for typed messages. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "tools.jackson.databind.json.JsonMapper")
    static class JacksonPayloads {

        @Bean
        @ConditionalOnMissingBean
        PayloadSerializer dbQueuePayloadSerializer(ObjectProvider<JsonMapper> mappers) {
            return new JacksonPayloadSerializer(mappers.getIfAvailable(() -> JsonMapper.builder().build()));
        }
    }

    /** Static: a registry post-processor must exist before the other beans of this configuration. */
    @Bean
    static QueueProducerRegistrar dbQueueProducerRegistrar(Environment environment) {
        return new QueueProducerRegistrar(environment);
    }
}
