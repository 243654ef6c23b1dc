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

    @Test
    void aKeyAlwaysGoesToTheSamePartition() {
        // CRC-32 of "order-42" is fixed: a change here would move every keyed message of a running topic.
        assertEquals(Partitioner.forKey("order-42", 16), Partitioner.forKey("order-42", 16));
        assertEquals((int) (1_475_806_942L % 16), Partitioner.forKey("order-42", 16));
    }
}
