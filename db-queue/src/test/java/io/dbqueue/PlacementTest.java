package io.dbqueue;

import io.dbqueue.common.InvalidValueException;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Placement is pure: no database behind the shard names. */
class PlacementTest {

    private static final DataSource NONE = new org.postgresql.ds.PGSimpleDataSource();

    private static ShardSet shards(String... names) {
        Map<String, DataSource> map = new LinkedHashMap<>();
        for (String name : names) {
            map.put(name, NONE);
        }
        return ShardSet.of(map);
    }

    /** A topic's partitions follow the shards' order, which Map.of draws anew in every JVM. */
    @Test
    void aShardSetRefusesAMapWithoutAnOrder() {
        InvalidValueException e = assertThrows(InvalidValueException.class,
                () -> ShardSet.of(Map.of("a", NONE, "b", NONE)));
        assertEquals("shards", e.field());
        assertTrue(e.getMessage().contains("must keep an order (a LinkedHashMap or a SortedMap)"), e.getMessage());
        assertEquals(List.of("a", "b"), ShardSet.of(new TreeMap<>(Map.of("b", NONE, "a", NONE))).names());
        assertEquals(List.of("a"), ShardSet.of(Map.of("a", NONE)).names(), "one shard has one order");
    }

    @Test
    void aHashedQueueLandsOnTheSameShardWhateverTheOrderOfTheShards() {
        ShardSet abc = shards("a", "b", "c");
        ShardSet cab = shards("c", "a", "b");
        for (int i = 0; i < 200; i++) {
            String queue = "queue-" + i;
            assertEquals(Placement.hashed().shardOfQueue(queue, abc), Placement.hashed().shardOfQueue(queue, cab), queue);
        }
    }

    @Test
    void hashedQueuesSpreadOverEveryShard() {
        ShardSet abc = shards("a", "b", "c");
        Map<String, Integer> counts = new HashMap<>();
        IntStream.range(0, 300).forEach(i -> counts.merge(Placement.hashed().shardOfQueue("q" + i, abc), 1, Integer::sum));
        counts.values().forEach(n -> assertTrue(n > 60, "each shard gets about a third: " + counts));
    }

    @Test
    void anAddedShardTakesQueuesOnlyToItself() {
        ShardSet ab = shards("a", "b");
        ShardSet abc = shards("a", "b", "c");
        for (int i = 0; i < 300; i++) {
            String before = Placement.hashed().shardOfQueue("q" + i, ab);
            String after = Placement.hashed().shardOfQueue("q" + i, abc);
            assertTrue(after.equals(before) || after.equals("c"), "q" + i + " moved from " + before + " to " + after);
        }
    }

    @Test
    void aStatedPlaceWinsOverTheHash() {
        ShardSet abc = shards("a", "b", "c");
        String hashed = Placement.hashed().shardOfQueue("emails", abc);
        String other = hashed.equals("a") ? "b" : "a";
        assertEquals(other, Placement.hashed().queue("emails", other).shardOfQueue("emails", abc));
    }

    @Test
    void partitionsGoRoundTheShardsUnlessStated() {
        ShardSet ab = shards("a", "b");
        Placement placement = Placement.hashed().partition("orders", 2, "b");
        assertEquals("a", placement.shardOfPartition("orders", 0, ab));
        assertEquals("b", placement.shardOfPartition("orders", 1, ab));
        assertEquals("b", placement.shardOfPartition("orders", 2, ab));
        assertEquals("b", placement.shardOfPartition("orders", 3, ab));
    }

    @Test
    void anUnknownShardIsRefusedNamingTheKnownOnes() {
        ShardSet ab = shards("a", "b");
        InvalidValueException e = assertThrows(InvalidValueException.class,
                () -> DbQueue.builder(ab).placement(Placement.hashed().queue("emails", "z")));
        assertTrue(e.getMessage().contains("[a, b]") && e.getMessage().contains("emails"), e.getMessage());
        assertThrows(InvalidValueException.class, () -> ab.dataSource("z"));
        assertThrows(InvalidValueException.class, () -> ShardSet.builder().shard("a b", NONE));
        assertThrows(InvalidValueException.class, () -> ShardSet.builder().shard("a", NONE).shard("a", NONE));
        assertThrows(InvalidValueException.class, () -> ShardSet.builder().build());
    }
}
