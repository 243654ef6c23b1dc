package io.dbqueue.bench.metrics;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MeterTest {

    @Test
    void anAcknowledgedBatchHasAWriteLatencyAndItsReadsARead() {
        Meter meter = new Meter(0, 2);
        long stamp = System.nanoTime() - 5_000_000; // sent 5 ms ago
        meter.acknowledged(3, stamp);
        meter.processed(new long[]{stamp, stamp, stamp}, 3);
        Histogram writes = meter.writeLatencySinceLastCall();
        assertEquals(1, writes.getTotalCount(), "one write a batch");
        assertTrue(writes.getMinValue() >= 5_000, "from the stamp: " + writes.getMinValue() + " us");
        Histogram reads = meter.readLatencySinceLastCall();
        assertEquals(3, reads.getTotalCount(), "one read a message");
        assertTrue(reads.getMaxValue() < 5_000, "from the acknowledgement, not the stamp: " + reads.getMaxValue());
        assertEquals(3, meter.latencySinceLastCall().getTotalCount());
        assertEquals(3 * 2 - 3, meter.waiting(), "lag counts each message once per group");
    }

    @Test
    void aMessageReadBeforeItsProducerHeardOfTheCommitHasAReadLatencyOfZero() {
        Meter meter = new Meter(0, 1);
        meter.acknowledged(1, System.nanoTime());
        long unacknowledged = System.nanoTime();
        meter.processed(new long[]{unacknowledged}, 1);
        Histogram reads = meter.readLatencySinceLastCall();
        assertEquals(1, reads.getTotalCount());
        assertEquals(0, reads.getMaxValue());
    }

    @Test
    void withoutAcknowledgementsNoWriteOrReadIsRecorded() {
        Meter meter = new Meter(0, 1);
        meter.enqueued(1);
        meter.processed(new long[]{System.nanoTime()}, 1);
        assertEquals(0, meter.writeLatencySinceLastCall().getTotalCount());
        assertEquals(0, meter.readLatencySinceLastCall().getTotalCount());
        assertEquals(1, meter.latencySinceLastCall().getTotalCount());
    }

    @Test
    void onlyClaimsThatTookTasksAreTimed() {
        Meter meter = new Meter(0, 1);
        meter.claimed(0, 1_000_000); // an idle worker's poll
        meter.claimed(100, 2_000_000);
        meter.claimed(50, 4_000_000);
        Histogram claims = meter.claimTimeSinceLastCall();
        assertEquals(2, claims.getTotalCount());
        assertEquals(150, meter.claimedTotal());
        ClaimSummary summary = ClaimSummary.of(claims, meter.claimedTotal());
        assertEquals(75.0, summary.tasksPerClaim());
        assertEquals(2.0, summary.ms().min(), 0.01);
        assertEquals(4.0, summary.ms().max(), 0.01);
    }

    @Test
    void aWindowWithoutClaimsHasNoClaimSummary() {
        assertNull(ClaimSummary.of(new Histogram(3), 0));
    }
}
