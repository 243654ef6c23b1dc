package io.dbqueue.spring;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CachedTest {

    @Test
    void readsAtMostOncePerMaxAgeAndKeepsAFailureAsLong() {
        AtomicLong clock = new AtomicLong();
        AtomicInteger reads = new AtomicInteger();
        Cached<Integer> cached = new Cached<>(() -> {
            if (reads.incrementAndGet() == 3) {
                throw new IllegalStateException("table dropped");
            }
            return reads.get();
        }, Duration.ofSeconds(5), clock::get);

        assertThat(cached.get()).isEqualTo(1);
        clock.addAndGet(Duration.ofSeconds(4).toNanos());
        assertThat(cached.get()).as("cached").isEqualTo(1);
        clock.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(cached.get()).as("refreshed").isEqualTo(2);

        clock.addAndGet(Duration.ofSeconds(5).toNanos());
        assertThatThrownBy(cached::get).hasMessage("table dropped");
        assertThatThrownBy(cached::get).as("the failure is cached too").hasMessage("table dropped");
        assertThat(reads).hasValue(3);
        clock.addAndGet(Duration.ofSeconds(5).toNanos());
        assertThat(cached.get()).isEqualTo(4);
    }
}
