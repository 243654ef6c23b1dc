package io.dbqueue.queue;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The workers' wait after failed cycles in a row: doubled up to five times, never past Long.MAX_VALUE. */
class BackoffTest {

    @Test
    void theWaitDoublesWithEachFailureUpToFiveTimes() {
        Duration second = Duration.ofSeconds(1);
        assertEquals(1_000_000_000L, QueueWorkers.backoffNanos(second, 1));
        assertEquals(2_000_000_000L, QueueWorkers.backoffNanos(second, 2));
        assertEquals(32_000_000_000L, QueueWorkers.backoffNanos(second, 6));
        assertEquals(32_000_000_000L, QueueWorkers.backoffNanos(second, 60), "five doublings at most");
    }

    @Test
    void aLongTimeoutDoubledSaturatesInsteadOfOverflowingIntoATightLoop() {
        Duration decade = Duration.ofDays(3_653); // over 2^63 ns once doubled five times
        assertEquals(Long.MAX_VALUE, QueueWorkers.backoffNanos(decade, 6));
        assertEquals(decade.toNanos(), QueueWorkers.backoffNanos(decade, 1));
    }
}
