package io.dbqueue.spring;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.ShardSet;
import io.dbqueue.common.InvalidValueException;

import java.util.LinkedHashMap;
import java.util.Map;

/** A HikariCP pool per {@code dbq.shards.<name>}, as a {@link ShardSet}; closed with the context. */
final class ShardPools implements AutoCloseable {

    private final Map<String, HikariDataSource> pools = new LinkedHashMap<>();
    private final ShardSet shards;

    ShardPools(Map<String, DbQueueProperties.Shard> properties) {
        ShardSet.Builder builder = ShardSet.builder();
        properties.forEach((name, shard) -> {
            String prefix = "dbq.shards." + name;
            if (shard.url() == null || shard.url().isBlank()) {
                throw new InvalidQueuePropertyException(prefix + ".url is required");
            }
            HikariDataSource pool = new HikariDataSource();
            pool.setPoolName("dbq-shard-" + name); // HikariCP's timeouts name the pool, and so the shard
            pool.setJdbcUrl(shard.url());
            pool.setUsername(shard.username());
            pool.setPassword(shard.password());
            pool.setMaximumPoolSize(shard.maximumPoolSize());
            pool.setConnectionTimeout(shard.connectionTimeout().toMillis());
            pool.setInitializationFailTimeout(-1); // a shard down at start-up fails what needs it, not the pool
            pools.put(name, pool);
            try {
                builder.shard(name, pool);
            } catch (InvalidValueException e) {
                close();
                throw new InvalidQueuePropertyException(prefix + ": the shard's name " + e.rule());
            }
        });
        this.shards = builder.build();
    }

    ShardSet shardSet() {
        return shards;
    }

    @Override
    public void close() {
        pools.values().forEach(HikariDataSource::close);
    }
}
