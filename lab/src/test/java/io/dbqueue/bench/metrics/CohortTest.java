package io.dbqueue.bench.metrics;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CohortTest {

    /** Only messages stamped while the window was open count, delivered during it or after it closed. */
    @Test
    void theCohortIsTheMessagesStampedInTheWindowWhenEverTheyArrive() {
        Meter meter = new Meter(0, 1);
        long before = System.nanoTime();
        meter.due(100, before);
        meter.openCohort(before + 1);
        long inside = before + 2;
        meter.due(100, inside);
        meter.processed(stamps(before, 100), 100); // the warm-up's batch, delivered in the window: not counted
        meter.closeCohort(inside + 1);
        meter.due(100, inside + 1); // due after the window: not followed
        assertEquals(100, meter.cohortUnfinished(), "the window's batch is owed");
        meter.processed(stamps(inside, 100), 100); // delivered after the window closed: counted
        meter.processed(stamps(inside + 1, 100), 100);
        assertEquals(0, meter.cohortUnfinished());
        CohortLatency latency = meter.cohortLatency();
        assertEquals(100, latency.deliveries());
        assertEquals(0, latency.unfinished());
        assertTrue(latency.bounded());
    }

    @Test
    void everyGroupOwesItsOwnDelivery() {
        Meter meter = new Meter(0, 5);
        long stamp = System.nanoTime();
        meter.openCohort(stamp);
        meter.due(10, stamp);
        meter.processed(stamps(stamp, 10), 10);
        assertEquals(40, meter.cohortUnfinished(), "4 groups still owe the batch");
    }

    /** A batch is owed from the moment it is due: one whose send is not acknowledged yet is not left out. */
    @Test
    void aBatchIsOwedFromWhenItIsDueNotFromItsAcknowledgement() {
        Meter meter = new Meter(0, 1);
        long stamp = System.nanoTime();
        meter.openCohort(stamp);
        meter.due(100, stamp);
        meter.closeCohort(stamp + 1);
        assertEquals(100, meter.cohortUnfinished(), "sent, its acknowledgement still to come");
        CohortLatency latency = meter.cohortLatency();
        assertEquals(100, latency.unfinished());
        assertFalse(latency.bounded());
    }

    /** An owed delivery is slower than every delivered one, even one delivered after more than the wait. */
    @Test
    void anOwedRankIsAtLeastTheSlowestDelivery() {
        Histogram micros = new Histogram(3);
        for (int i = 0; i < 70; i++) {
            micros.recordValue(3_000_000L); // 3 s behind
        }
        CohortLatency lagging = CohortLatency.of(micros, 30, 1_000);
        assertEquals(3_000, lagging.p99(), 3, "not the 1,000 ms waited, below the delivered p50");
        assertTrue(lagging.p99() >= lagging.p50());
    }

    /** A message never delivered ranks above every delivered one: past 1 % owed the p99 is only a lower bound. */
    @Test
    void owedDeliveriesRankAboveEveryDeliveredOne() {
        Histogram micros = new Histogram(3);
        for (int i = 1; i <= 98; i++) {
            micros.recordValue(i * 1_000L);
        }
        CohortLatency twoOwed = CohortLatency.of(micros, 2, 1_000);
        assertEquals(1_000, twoOwed.p99(), "the 99th of 100 is owed");
        assertEquals(50, twoOwed.p50(), 0.1);
        assertFalse(twoOwed.bounded());

        Histogram all = new Histogram(3);
        for (int i = 1; i <= 99; i++) {
            all.recordValue(i * 1_000L);
        }
        CohortLatency oneOwed = CohortLatency.of(all, 1, 1_000);
        assertEquals(99, oneOwed.p99(), 0.1, "the 99th of 100 was delivered");
        assertTrue(oneOwed.bounded());
    }

    @Test
    void aCohortNothingWasSentInIsNotMeasured() {
        Meter meter = new Meter(0, 1);
        assertNull(meter.cohortLatency(), "no window opened");
        meter.openCohort(System.nanoTime());
        meter.closeCohort(System.nanoTime());
        assertNull(meter.cohortLatency(), "nothing due");
    }

    private static long[] stamps(long stamp, int count) {
        long[] stamps = new long[count];
        java.util.Arrays.fill(stamps, stamp);
        return stamps;
    }
}
