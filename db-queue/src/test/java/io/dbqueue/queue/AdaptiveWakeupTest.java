package io.dbqueue.queue;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When adaptive wakeups switch between listening and polling, on a clock the test moves. */
class AdaptiveWakeupTest {

    private static final long WINDOW = AdaptiveWakeup.WINDOW.toNanos();
    private static final int BATCH = 10;

    private long now = 1_000_000_000L;
    private final AdaptiveWakeup adaptive = new AdaptiveWakeup(now);

    @Test
    void startsListeningWithoutAHandover() {
        assertTrue(adaptive.listening(now));
        assertFalse(adaptive.pollTightly(now));
    }

    @Test
    void pollsAfterTwoSaturatedWindowsAndListensAgainAfterTwoThatKeepUp() {
        window(40, 40);
        assertTrue(adaptive.listening(now), "one saturated window is not enough");
        window(40, 38);
        assertFalse(adaptive.listening(now + 1), "two windows of >= 90 % full claims: polling");
        assertTrue(adaptive.pollTightly(now + 1));

        window(40, 30);
        window(40, 30);
        assertFalse(adaptive.listening(now + 1), "75 % full is between the thresholds: stays polling");
        window(40, 10);
        window(40, 0);
        assertTrue(adaptive.listening(now + 1), "two windows under 50 % full: listening");
        assertTrue(adaptive.pollTightly(now + 1), "still polling while producers learn it listens again");
        assertFalse(adaptive.pollTightly(now + 1 + AdaptiveWakeup.HANDOVER.toNanos()));
        assertEquals(2, adaptive.switches());
    }

    @Test
    void doesNotFlapOnAlternatingWindows() {
        for (int i = 0; i < 20; i++) {
            window(40, i % 2 == 0 ? 40 : 0);
        }
        assertEquals(0, adaptive.switches());
    }

    @Test
    void fewClaimsNeverCountAsSaturated() {
        for (int i = 0; i < 10; i++) {
            window(AdaptiveWakeup.MIN_CLAIMS - 1, AdaptiveWakeup.MIN_CLAIMS - 1);
        }
        assertTrue(adaptive.listening(now + 1));
    }

    @Test
    void fullClaimsWhileSomeWorkerIdlesAreNoSaturation() {
        for (int w = 0; w < 10; w++) {
            for (int i = 0; i < 40; i++) {
                adaptive.claimed(BATCH, BATCH, false, now + i);
            }
            now += WINDOW;
        }
        assertTrue(adaptive.listening(now + 1), "a burst that idle workers take fills every claim, yet they keep up");
        assertEquals(0, adaptive.switches());
    }

    @Test
    void idleTimeEndsPolling() {
        window(40, 40);
        window(40, 40);
        assertFalse(adaptive.listening(now + 1));
        assertTrue(adaptive.listening(now + 60 * WINDOW), "a minute without claims: the workers keep up");
        assertEquals(2, adaptive.switches());
    }

    /** One window in which {@code claims} claims were made, {@code full} of them full; the clock ends at the window's end. */
    private void window(int claims, int full) {
        for (int i = 0; i < claims; i++) {
            adaptive.claimed(i < full ? BATCH : BATCH - 1, BATCH, true, now + i);
        }
        now += WINDOW;
    }
}
