package io.dbqueue.queue;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LogRateLimitTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final LogRateLimit limit = new LogRateLimit(2, Duration.ofSeconds(10), now::get);

    @Test
    void letsThePermitsThroughPerWindowAndReportsTheDroppedOnesOnceWithTheNextLine() {
        assertEquals(new LogRateLimit.Decision(true, 0), limit.acquire("a"));
        assertEquals(new LogRateLimit.Decision(true, 0), limit.acquire("a"));
        assertEquals(new LogRateLimit.Decision(false, 0), limit.acquire("a"));
        assertEquals(new LogRateLimit.Decision(false, 0), limit.acquire("a"));

        now.addAndGet(Duration.ofSeconds(10).toNanos() - 1);
        assertEquals(new LogRateLimit.Decision(false, 0), limit.acquire("a"), "the window is not over yet");

        now.addAndGet(1);
        assertEquals(new LogRateLimit.Decision(true, 3), limit.acquire("a"));
        assertEquals(new LogRateLimit.Decision(true, 0), limit.acquire("a"), "the count was reported once");
    }

    @Test
    void eachKeyHasItsOwnWindow() {
        limit.acquire("a");
        limit.acquire("a");
        assertEquals(new LogRateLimit.Decision(false, 0), limit.acquire("a"));

        assertEquals(new LogRateLimit.Decision(true, 0), limit.acquire("b"));
    }

    @Test
    void aWindowStartsAtTheFirstLineAfterTheLastWindowEnded() {
        limit.acquire("a");
        now.addAndGet(Duration.ofMinutes(5).toNanos());
        limit.acquire("a");
        limit.acquire("a");
        now.addAndGet(Duration.ofSeconds(9).toNanos());
        assertEquals(new LogRateLimit.Decision(false, 0), limit.acquire("a"), "two lines in the window begun 9 s ago");
    }
}
