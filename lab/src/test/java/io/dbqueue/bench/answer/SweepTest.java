package io.dbqueue.bench.answer;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dbqueue.bench.report.Steps.kept;
import static io.dbqueue.bench.report.Steps.shape;
import static io.dbqueue.bench.report.Steps.step;
import static io.dbqueue.bench.report.Steps.sweep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SweepTest {

    private final AnswerShape shape = shape(List.of(AnswerSystem.QUEUE_AT_LEAST_ONCE));

    @Test
    void capacityIsTheHighestRateUpToWhichEveryRateMetTheTarget() {
        Sweep sweep = sweep(AnswerSystem.QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 8), kept(2_000, 30), kept(5_000, 9),
                kept(10_000, 150));
        assertEquals(1_000, sweep.capacity(10), "5,000 met 10 ms again, but 2,000 had missed it");
        assertEquals(5_000, sweep.capacity(50));
        assertEquals(10_000, sweep.capacity(200));
    }

    @Test
    void aRateNotKeptUpMeetsNoTargetWhateverItsLatency() {
        Sweep sweep = sweep(AnswerSystem.QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 5), step(2_000, 1_800, 5));
        assertEquals(1_000, sweep.capacity(200));
        assertTrue(sweep.saturated());
        assertEquals(1_800, sweep.saturation().orElseThrow());
        assertNull(sweep.keptUpAt(2_000));
    }

    @Test
    void noCapacityWhenTheLowestRateMisses() {
        Sweep sweep = sweep(AnswerSystem.QUEUE_AT_LEAST_ONCE, shape, kept(1_000, 60));
        assertEquals(0, sweep.capacity(50));
        assertFalse(sweep.saturated());
    }

    @Test
    void keptUpNeedsBothSidesWithinFivePercentOfTheOfferedRate() {
        assertTrue(step(1_000, 950, 5).keptUp());
        assertFalse(step(1_000, 949, 5).keptUp());
    }
}
