package io.dbqueue.bench.cli;

import io.dbqueue.bench.workload.DriverName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ShardOptionTest {

    private static final String A = "jdbc:postgresql://a:5432/q";
    private static final String B = "jdbc:postgresql://b:5432/q";

    @Test
    void urlsComeFromTheOptionElseTheVariableAndMustBeOnePerShard() {
        assertEquals(List.of(A, B), ShardOption.urls(2, List.of(A, B), "ignored"));
        assertEquals(List.of(A, B), ShardOption.urls(2, null, A + " , " + B));
        assertEquals(List.of(), ShardOption.urls(2, null, null), "no URLs: embedded servers");
        assertEquals(List.of(), ShardOption.urls(0, null, A), "without --shards the variable is not read");
        assertEquals("--shards 3 needs 3 JDBC URLs, --shard-url gives 2: [" + A + ", " + B + "]",
                assertThrows(IllegalArgumentException.class, () -> ShardOption.urls(3, List.of(A, B), null))
                        .getMessage());
        assertEquals("--shards 2 needs 2 JDBC URLs, DBQ_SHARD_URLS gives 2: [" + A + ", ]",
                assertThrows(IllegalArgumentException.class, () -> ShardOption.urls(2, null, A + ",")).getMessage());
    }

    @Test
    void theShardCountIsOneToTheMost() {
        ShardOption option = new ShardOption();
        assertEquals(0, option.count());
        option.shards = DriverName.MAX_SHARDS;
        assertEquals(DriverName.MAX_SHARDS, option.count());
        option.shards = 0;
        assertEquals("--shards must be between 1 and 4, was 0",
                assertThrows(IllegalArgumentException.class, option::count).getMessage());
        option.shards = null;
        option.urls = List.of(A);
        assertEquals("--shard-url needs --shards N, N the number of URLs",
                assertThrows(IllegalArgumentException.class, option::count).getMessage());
    }

    @Test
    void shardsAddAShardedDriverPerCountUnlessTheDriversNameOne() {
        assertEquals(List.of(DriverName.DIRECT, DriverName.SHARDED_1, DriverName.SHARDED_2, DriverName.SHARDED_3),
                ShardOption.withShardDrivers(List.of(DriverName.DIRECT), 3));
        assertEquals(List.of(DriverName.DIRECT, DriverName.SHARDED_3),
                ShardOption.withShardDrivers(List.of(DriverName.DIRECT, DriverName.SHARDED_3), 3));
        assertEquals(List.of(DriverName.DIRECT), ShardOption.withShardDrivers(List.of(DriverName.DIRECT), 0));
        assertEquals("driver sharded-3 needs --shards 3 or more, was 2", assertThrows(IllegalArgumentException.class,
                () -> ShardOption.withShardDrivers(List.of(DriverName.SHARDED_3), 2)).getMessage());
    }
}
