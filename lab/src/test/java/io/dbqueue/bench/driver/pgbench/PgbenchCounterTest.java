package io.dbqueue.bench.driver.pgbench;

import io.dbqueue.bench.driver.pgbench.PgbenchCounter.Counts;
import io.dbqueue.bench.driver.pgbench.PgbenchCounter.Reading;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Counting from the table's readings: interpolated between readings, never backwards. */
class PgbenchCounterTest {

    private final AtomicLong enqueued = new AtomicLong();
    private final AtomicLong processed = new AtomicLong();

    private void feed(Counts counts, long nanos) {
        counts.feed(nanos, enqueued::addAndGet, processed::addAndGet);
    }

    @Test
    void enqueuedFromTheSequenceAndProcessedFromTheRowsThatLeft() {
        Counts counts = new Counts(new Reading(0, 1_000, 1_000), true); // a backlog of 1,000, ids 1..1000
        Reading later = new Reading(100, 1_500, 700);
        assertEquals(500, counts.enqueued(later));
        assertEquals(800, counts.processed(later), "1,000 + 500 enqueued - 700 left");
    }

    @Test
    void theMeterMovesToTheCountsInterpolatedBetweenTheLastTwoReadings() {
        Counts counts = new Counts(new Reading(0, 0, 0), true);
        counts.add(new Reading(100, 1_000, 200));
        counts.add(new Reading(200, 2_000, 200));
        feed(counts, 150);
        assertEquals(1_500, enqueued.get());
        assertEquals(1_300, processed.get(), "800 at 100, 1,800 at 200");
        feed(counts, 260);
        assertEquals(2_000, enqueued.get(), "past the last reading it holds there");
        assertEquals(1_800, processed.get());
    }

    @Test
    void aCountThatStepsBackIsNotPassedOnTwice() {
        Counts counts = new Counts(new Reading(0, 0, 0), true);
        counts.add(new Reading(100, 100, 0)); // an id handed out for an insert not yet visible: 100 "processed"
        feed(counts, 100);
        assertEquals(100, processed.get());
        counts.add(new Reading(200, 100, 100)); // visible now, nothing processed after all
        feed(counts, 200);
        assertEquals(100, processed.get(), "the meter does not go back");
        counts.add(new Reading(300, 200, 50));
        feed(counts, 300);
        assertEquals(150, processed.get(), "and catches up once the table passes it");
        assertEquals(200, enqueued.get());
    }

    @Test
    void withoutConsumersWhatWasEnqueuedIsTheRowsCommittedAndNothingIsProcessed() {
        Counts counts = new Counts(new Reading(0, 1_000, 1_000), false);
        Reading later = new Reading(100, 1_600, 1_500); // 100 ids handed out to inserts not yet committed
        assertEquals(500, counts.enqueued(later));
        assertEquals(0, counts.processed(later));
    }
}
