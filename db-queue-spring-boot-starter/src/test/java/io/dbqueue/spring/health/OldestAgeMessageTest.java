package io.dbqueue.spring.health;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** How health says a queue's oldest due task is older than its limit. */
class OldestAgeMessageTest {

    @Test
    void aLimitInWholeSecondsIsSaidInWholeSeconds() {
        assertThat(DbQueueHealthIndicator.olderThan(Duration.ofMillis(3_600_870), Duration.ofMinutes(10)))
                .isEqualTo("oldest due task 3600 s old, older than max-oldest-age 600 s");
    }

    @Test
    void aLimitWithAPartOfASecondIsSaidToTheMillisecond() {
        assertThat(DbQueueHealthIndicator.olderThan(Duration.ofMillis(800), Duration.ofMillis(500)))
                .isEqualTo("oldest due task 0.8 s old, older than max-oldest-age 0.5 s");
        assertThat(DbQueueHealthIndicator.olderThan(Duration.ofMillis(2_250), Duration.ofMillis(1_500)))
                .isEqualTo("oldest due task 2.25 s old, older than max-oldest-age 1.5 s");
    }
}
