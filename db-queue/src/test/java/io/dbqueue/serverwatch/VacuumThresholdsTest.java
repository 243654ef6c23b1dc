package io.dbqueue.serverwatch;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VacuumThresholdsTest {

    private static final VacuumThresholds THRESHOLDS = new VacuumThresholds(Duration.ofSeconds(60), 100_000, 1_000);

    static HorizonHolder session(long transactions, Duration age) {
        return new HorizonHolder(HorizonHolder.Kind.SESSION, "4711", 4711, "app", "idle in transaction", "psql",
                null, null, transactions, Optional.ofNullable(age));
    }

    static HorizonHolder slot(long transactions) {
        return new HorizonHolder(HorizonHolder.Kind.REPLICATION_SLOT, "standby_1", 0, null, "inactive", null,
                null, null, transactions, Optional.empty());
    }

    @Test
    void aHorizonOlderInTimeBlocksATableWithDeadTuples() {
        assertTrue(THRESHOLDS.blocked(Optional.of(session(10, Duration.ofSeconds(61))), 1_001));
        assertFalse(THRESHOLDS.blocked(Optional.of(session(10, Duration.ofSeconds(60))), 1_001), "not older than");
        assertFalse(THRESHOLDS.blocked(Optional.of(session(10, Duration.ofSeconds(59))), 1_000_000));
    }

    @Test
    void aHorizonOlderInTransactionsBlocksEvenWhenItsTimeIsShortOrUnknown() {
        assertTrue(THRESHOLDS.blocked(Optional.of(session(100_001, Duration.ofSeconds(5))), 5_000));
        assertTrue(THRESHOLDS.blocked(Optional.of(slot(100_001)), 5_000), "slots record no time");
        assertTrue(THRESHOLDS.blocked(Optional.of(session(100_001, null)), 5_000), "a session hidden from the role");
        assertFalse(THRESHOLDS.blocked(Optional.of(slot(100_000)), 5_000));
    }

    @Test
    void fewDeadTuplesOrNoHolderAreNotBlocked() {
        HorizonHolder old = session(1_000_000, Duration.ofHours(3));
        assertFalse(THRESHOLDS.blocked(Optional.of(old), 1_000), "at the floor, not above it");
        assertFalse(THRESHOLDS.blocked(Optional.of(old), 0));
        assertFalse(THRESHOLDS.blocked(Optional.empty(), 1_000_000));
    }

    @Test
    void rejectsNegativeThresholds() {
        assertThrows(IllegalArgumentException.class, () -> new VacuumThresholds(Duration.ofSeconds(-1), 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new VacuumThresholds(Duration.ZERO, -1, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new VacuumThresholds(Duration.ZERO, 0, -5));
        assertEquals("deadTuples must be zero or positive, was -5", e.getMessage());
    }
}
