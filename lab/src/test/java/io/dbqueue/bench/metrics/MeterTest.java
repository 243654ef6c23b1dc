package io.dbqueue.bench.metrics;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
