package io.dbqueue.spring;

import io.dbqueue.DbQueue;
import io.dbqueue.Placement;
import io.dbqueue.ShardSet;
import io.dbqueue.ShardedDbQueue;
import io.dbqueue.log.LogListener;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueListener;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.util.ClassUtils;

import java.util.Map;

/**
 * The queues over several databases ({@link ShardsCondition}): a door per shard ({@link DbQueueShards}) in place of
 * the one {@link DbQueue}, each set up as the one door would be, the queue tables checked or created on every shard.
 * Topics and schedules are not offered over shards yet: configuring them fails start-up saying so.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(ShardsCondition.class)
class DbQueueShardsConfiguration {

    /** Read by name: the log package depends on this one, not the other way round. */
    private static final String TOPIC_LISTENER = "io.dbqueue.spring.log.TopicListener";

    @Bean
    @ConditionalOnMissingBean(ShardSet.class)
    ShardPools dbQueueShardPools(DbQueueProperties properties) {
        return new ShardPools(properties.shards());
    }

    /** Built after Flyway, Liquibase and spring.sql.init, as the one door is. */
    @Bean
    @DependsOnDatabaseInitialization
    DbQueueShards dbQueueShards(DbQueueProperties properties, ObjectProvider<ShardSet> applicationShards,
                                ObjectProvider<ShardPools> pools, ObjectProvider<PlatformTransactionManager> managers,
                                ObjectProvider<QueueListener> listeners, ObjectProvider<LogListener> logListeners,
                                ObjectProvider<DbQueueCustomizer> customizers, Environment environment,
                                ListableBeanFactory beans) {
        checkSupported(environment, beans);
        ShardSet own = applicationShards.getIfAvailable();
        if (own != null && !properties.shards().isEmpty()) {
            throw new InvalidQueuePropertyException("dbq.shards is set, and the application defines a ShardSet bean;"
                    + " name the shards one way: drop dbq.shards, or the bean");
        }
        ShardSet shards = own != null ? own : pools.getObject().shardSet();
        String where = own != null ? "the application's ShardSet bean" : "dbq.shards";
        Map<String, QueueConfig> configs = properties.configs();
        Placement placement = ShardPlacement.of(properties, configs, shards, where);
        for (String name : shards.names()) {
            QueueTables.ensure(shards.dataSource(name), configs, properties.initializeSchema(), "shard " + name);
        }
        ShardedDbQueue sharded = DbQueue.builder(shards).placement(placement)
                .shutdownTimeout(properties.shutdownTimeout())
                .eachShard((name, door) -> DbQueueAutoConfiguration.configure(door, properties, configs,
                        new ShardTransactions(name, shards,
                                DbQueueAutoConfiguration.transactions(shards.dataSource(name), managers)),
                        listeners, logListeners, customizers))
                .build();
        DbQueueShards placed = new DbQueueShards(sharded, configs);
        try {
            ShardPlacement.checkGroups(properties, placed::shardOf);
        } catch (RuntimeException e) {
            placed.close();
            throw e;
        }
        return placed;
    }

    /** Closes every shard's door as the context stops, in the phase after the consumers'. */
    @Bean
    SmartLifecycle dbQueueShardsClose(DbQueueShards shards) {
        return new DoorClose(shards::close);
    }

    /** Fails on what the starter does not yet run over shards, rather than run it on no database or the wrong one. */
    private static void checkSupported(Environment environment, ListableBeanFactory beans) {
        Binder binder = Binder.get(environment);
        boolean topicListeners = ClassUtils.isPresent(TOPIC_LISTENER, beans.getClass().getClassLoader())
                && beans.getBeanNamesForType(ClassUtils.resolveClassName(TOPIC_LISTENER,
                beans.getClass().getClassLoader())).length > 0;
        if (topicListeners || !binder.bind("dbq.log.topics", Bindable.mapOf(String.class, Object.class))
                .orElse(Map.of()).isEmpty()) {
            throw new InvalidQueuePropertyException("dbq.log.topics: topics (and TopicListener beans) are not supported"
                    + " with dbq.shards yet; build a ShardedDbQueue yourself for sharded topics (docs/shards.md)");
        }
    }
}
