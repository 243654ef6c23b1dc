package io.dbqueue.kafka;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dbqueue.kafka.RelayedSequence.assertRelayed;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The checker the relay's tests rely on fails on what the relay must not do. */
class RelayedSequenceTest {

    @Test
    void inOrderAndAReplayWithinABatchPass() {
        assertRelayed(List.of(0L, 1L, 2L, 3L), 4, 2);
        assertRelayed(List.of(0L, 1L, 2L, 3L, 2L, 3L, 4L), 5, 2);
    }

    @Test
    void aGapAReorderingALossOrAReplayBeyondABatchFail() {
        assertThrows(AssertionError.class, () -> assertRelayed(List.of(0L, 2L, 1L), 3, 2));
        assertThrows(AssertionError.class, () -> assertRelayed(List.of(1L, 0L), 2, 2));
        assertThrows(AssertionError.class, () -> assertRelayed(List.of(0L, 1L), 3, 2));
        assertThrows(AssertionError.class, () -> assertRelayed(List.of(0L, 1L, 2L, 3L, 4L, 0L, 1L, 2L, 3L, 4L), 5, 2));
    }
}
