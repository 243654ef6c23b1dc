package io.dbqueue.bench.run;

import io.dbqueue.bench.metrics.SecondSample;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Throughput per full minute against the first, from made-up per-second series. */
class StabilityTest {

    @Test
    void eachFullMinuteIsComparedWithTheFirst() {
        Stability stability = Stability.of(series(100, 95, 120));

        assertEquals(List.of(100.0, 95.0, 120.0), stability.perMinute());
        assertEquals(100.0, stability.firstMinute());
        assertEquals(20.0, stability.maxDeviationPct());
        assertFalse(stability.withinTenPct());
    }

    @Test
    void tenPercentEitherWayIsStillStable() {
        Stability stability = Stability.of(series(200, 180, 220));

        assertEquals(10.0, stability.maxDeviationPct());
        assertTrue(stability.withinTenPct());
    }

    @Test
    void aWindowUnderTwoMinutesHasNoStabilityCheck() {
        assertNull(Stability.of(series(100)));
        assertNull(Stability.of(List.of()));
    }

    @Test
    void aShortLastMinuteIsLeftOut() {
        List<SecondSample> series = new ArrayList<>(series(100, 100));
        series.add(new SecondSample(150, 0, 10, 0, 0, 0, 0));

        assertEquals(List.of(100.0, 100.0), Stability.of(series).perMinute());
    }

    /** One sample a second, each minute at the given rate. */
    private static List<SecondSample> series(int... perMinute) {
        List<SecondSample> series = new ArrayList<>();
        for (int m = 0; m < perMinute.length; m++) {
            for (int s = 1; s <= 60; s++) {
                series.add(new SecondSample(m * 60 + s, perMinute[m], perMinute[m], 0, 0, 0, 0));
            }
        }
        return series;
    }
}
