package io.dbqueue.log;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AssignmentTest {

    @Test
    void membersTakePartitionsInTurnAndTogetherHoldEachOnce() {
        List<String> members = List.of("a", "b", "c");
        assertEquals(Set.of(0, 3, 6), Assignment.share(members, "a", 8));
        assertEquals(Set.of(1, 4, 7), Assignment.share(members, "b", 8));
        assertEquals(Set.of(2, 5), Assignment.share(members, "c", 8));
    }

    @Test
    void moreMembersThanPartitionsLeavesSomeIdle() {
        List<String> members = List.of("a", "b", "c", "d", "e");
        assertEquals(Set.of(3), Assignment.share(members, "d", 4));
        assertEquals(Set.of(), Assignment.share(members, "e", 4));
    }

    @Test
    void aMemberNotAmongTheLiveOnesHoldsNothing() {
        assertEquals(Set.of(), Assignment.share(List.of("a"), "b", 4));
    }

    /**
     * The partitions are the CRC-32 (as zlib computes it) of the key's UTF-8 bytes modulo the
     * partition count, worked out outside this code: a change here would move every keyed message
     * of a running topic.
     */
    @Test
    void aKeyAlwaysGoesToTheSamePartition() {
        assertEquals(14, Partitioner.forKey("order-42", 16));     // CRC-32 1,475,806,942
        assertEquals(734, Partitioner.forKey("order-42", 1024));
        assertEquals(10, Partitioner.forKey("order-7", 16));      // CRC-32 164,682,458
        assertEquals(13, Partitioner.forKey("customer-1", 16));   // CRC-32 3,958,365,309: above int, still not negative
        assertEquals(5, Partitioner.forKey("\u00fc", 16));        // UTF-8 C3 BC; Latin-1 FC would give 10
        assertEquals(0, Partitioner.forKey("", 16));              // CRC-32 0
    }
}
