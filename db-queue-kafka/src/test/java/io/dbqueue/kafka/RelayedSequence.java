package io.dbqueue.kafka;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The relay's promise on one partition, as read back from Kafka: its log offsets in order, where a
 * restart may go back (never forward), by at most a batch behind the highest offset relayed, and
 * then replays the offsets in order; and every offset there.
 */
final class RelayedSequence {

    private RelayedSequence() {
    }

    static void assertRelayed(List<Long> offsets, long count, int batchSize) {
        long expected = 0;
        long high = 0; // one past the highest offset seen
        for (int i = 0; i < offsets.size(); i++) {
            long offset = offsets.get(i);
            if (offset > expected) {
                fail("offset " + offset + " at position " + i + " skips " + expected + ": " + offsets);
            }
            if (offset < expected && offset < high - batchSize) {
                fail("offset " + offset + " at position " + i + " is relayed again, more than a batch (" + batchSize
                        + ") behind " + (high - 1) + ": " + offsets);
            }
            expected = offset + 1;
            high = Math.max(high, expected);
        }
        assertEquals(count, high, "every offset relayed: " + offsets);
    }
}
