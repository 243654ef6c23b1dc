package io.dbqueue;

import io.dbqueue.common.InvalidValueException;

import javax.sql.DataSource;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.regex.Pattern;

/**
 * Named {@link DataSource}s, each an ordinary PostgreSQL server (or database) holding the library's
 * tables: the shards a {@link ShardedDbQueue} spreads queues and topic partitions over. A shard's
 * name is what {@link Placement} maps to and what errors and health name, so keep it stable.
 *
 * <pre>{@code
 * ShardSet shards = ShardSet.builder().shard("a", dataSourceA).shard("b", dataSourceB).build();
 * }</pre>
 */
public final class ShardSet {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,63}");

    private final Map<String, DataSource> shards;

    private ShardSet(Map<String, DataSource> shards) {
        this.shards = Collections.unmodifiableMap(new LinkedHashMap<>(shards));
    }

    /**
     * A shard set of {@code shards}, in their map's order; at least one. The map must keep an order (a
     * {@link LinkedHashMap} or a {@link SortedMap}): a topic's partitions follow the shards' order, and {@code Map.of}
     * or a {@code HashMap} of two or more may list them in another order in another process or after a restart.
     */
    public static ShardSet of(Map<String, DataSource> shards) {
        Objects.requireNonNull(shards, "shards");
        if (shards.size() > 1 && !(shards instanceof LinkedHashMap) && !(shards instanceof SortedMap)) {
            throw new InvalidValueException("shards", "must keep an order (a LinkedHashMap or a SortedMap), as a topic's"
                    + " partitions follow it; a " + shards.getClass().getSimpleName() + " may list them in another"
                    + " order in another process", shards.keySet());
        }
        Builder builder = builder();
        shards.forEach(builder::shard);
        return builder.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The shards' names, in the order they were given. */
    public List<String> names() {
        return List.copyOf(shards.keySet());
    }

    /** The shard named {@code name}; an unknown name throws {@link InvalidValueException} naming the known ones. */
    public DataSource dataSource(String name) {
        DataSource dataSource = shards.get(name);
        if (dataSource == null) {
            throw new InvalidValueException("shard", "must be one of " + shards.keySet(), name);
        }
        return dataSource;
    }

    public boolean contains(String name) {
        return shards.containsKey(name);
    }

    public int size() {
        return shards.size();
    }

    @Override
    public String toString() {
        return "shards " + shards.keySet();
    }

    /** Collects the shards by name. */
    public static final class Builder {

        private final Map<String, DataSource> shards = new LinkedHashMap<>();

        private Builder() {
        }

        /** Adds shard {@code name} (letters, digits, '_' or '-', at most 63), once. */
        public Builder shard(String name, DataSource dataSource) {
            if (name == null || !NAME.matcher(name).matches()) {
                throw new InvalidValueException("shard", "must match " + NAME, name);
            }
            if (shards.containsKey(name)) {
                throw new InvalidValueException("shard", "must be named once", name);
            }
            shards.put(name, Objects.requireNonNull(dataSource, "dataSource"));
            return this;
        }

        public ShardSet build() {
            if (shards.isEmpty()) {
                throw new InvalidValueException("shards", "must name at least one shard", shards);
            }
            return new ShardSet(shards);
        }
    }
}
