package io.dbqueue.bench.driver;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PacingTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void aPacedBatchIsDueOnItsScheduleHoweverLateItIsAsked() {
        // 500 messages/s in batches of 1 over 2 producers: each sends every 4 ms, the second 2 ms after the first
        Pacing first = Pacing.of(500, 1, 2, 0, 1_000 * MS);
        Pacing second = Pacing.of(500, 1, 2, 1, 1_000 * MS);

        assertEquals(1_000 * MS, first.nextDue(1_000 * MS));
        assertEquals(1_004 * MS, first.nextDue(1_050 * MS), "a late send keeps the time it was due");
        assertEquals(1_008 * MS, first.nextDue(1_051 * MS));
        assertEquals(1_002 * MS, second.nextDue(0));
        assertEquals(1_006 * MS, second.nextDue(0));
    }

    @Test
    void theIntervalCoversTheBatch() {
        Pacing pacing = Pacing.of(1_000, 10, 1, 0, 0);

        pacing.nextDue(0);
        assertEquals(10 * MS, pacing.nextDue(0));
    }

    @Test
    void anUnpacedBatchIsDueWhenItIsSent() {
        Pacing pacing = Pacing.of(0, 100, 4, 3, 1_000 * MS);

        assertEquals(7 * MS, pacing.nextDue(7 * MS));
        assertEquals(9 * MS, pacing.nextDue(9 * MS));
    }
}
