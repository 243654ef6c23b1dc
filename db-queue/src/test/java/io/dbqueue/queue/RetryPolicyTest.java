package io.dbqueue.queue;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import static io.dbqueue.queue.RetryPolicy.RetryType.ARITHMETIC;
import static io.dbqueue.queue.RetryPolicy.RetryType.GEOMETRIC;
import static io.dbqueue.queue.RetryPolicy.RetryType.LINEAR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RetryPolicyTest {

    private static List<Long> seconds(RetryPolicy policy, int attempts) {
        return IntStream.rangeClosed(1, attempts).mapToObj(a -> policy.delayAfter(a).toSeconds()).toList();
    }

    @Test
    void schedulesFollowTheExperimentsFormulas() {
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L), seconds(RetryPolicy.of(GEOMETRIC, Duration.ofSeconds(1), 9), 5));
        assertEquals(List.of(1L, 3L, 5L, 7L, 9L), seconds(RetryPolicy.of(ARITHMETIC, Duration.ofSeconds(1), 9), 5));
        assertEquals(List.of(2L, 2L, 2L), seconds(RetryPolicy.of(LINEAR, Duration.ofSeconds(2), 9), 3));
    }

    @Test
    void delaysAreCappedAndNeverOverflow() {
        RetryPolicy policy = RetryPolicy.of(GEOMETRIC, Duration.ofSeconds(1), 1000).withMaxDelay(Duration.ofMinutes(1));
        assertEquals(Duration.ofMinutes(1), policy.delayAfter(10));
        assertEquals(Duration.ofMinutes(1), policy.delayAfter(500));
        assertEquals(Duration.ofDays(1), RetryPolicy.of(ARITHMETIC, Duration.ofDays(1), 9).delayAfter(Integer.MAX_VALUE));
    }

    @Test
    void jitterAddsUpToItsShare() {
        RetryPolicy policy = RetryPolicy.of(LINEAR, Duration.ofSeconds(10), 3).withJitter(0.5);
        for (int i = 0; i < 200; i++) {
            long ms = policy.delayAfter(1).toMillis();
            assertTrue(ms >= 10_000 && ms <= 15_000, "delay " + ms);
        }
    }

    @Test
    void exhaustedAfterMaxAttempts() {
        RetryPolicy policy = RetryPolicy.of(LINEAR, Duration.ofSeconds(1), 3);
        assertEquals(List.of(false, false, true), IntStream.rangeClosed(1, 3).mapToObj(policy::exhausted).toList());
    }

    @Test
    void invalidSettingsNameTheField() {
        assertEquals("maxAttempts must be at least 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> RetryPolicy.of(LINEAR, Duration.ofSeconds(1), 0))
                        .getMessage());
        assertEquals("interval must be positive, was PT0S",
                assertThrows(IllegalArgumentException.class, () -> RetryPolicy.of(LINEAR, Duration.ZERO, 1))
                        .getMessage());
        assertEquals("jitter must be between 0 and 1, was 1.5",
                assertThrows(IllegalArgumentException.class,
                        () -> RetryPolicy.of(LINEAR, Duration.ofSeconds(1), 1).withJitter(1.5)).getMessage());
    }
}
