package io.dbqueue.spring;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CachedTest {

    @Test
    void readsAtMostOncePerMaxAgeAndReadsAgainAfterAFailure() {
        AtomicLong clock = new AtomicLong();
        AtomicInteger reads = new AtomicInteger();
        Cached<Integer> cached = new Cached<>(() -> {
            if (reads.incrementAndGet() == 3) {
                throw new IllegalStateException("table dropped");
            }
            return reads.get();
        }, Duration.ofSeconds(5), Duration.ofSeconds(1), clock::get, Runnable::run);

        assertThat(cached.get()).isEqualTo(1);
        clock.addAndGet(Duration.ofSeconds(4).toNanos());
        assertThat(cached.get()).as("cached").isEqualTo(1);
        clock.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(cached.get()).as("refreshed").isEqualTo(2);

        clock.addAndGet(Duration.ofSeconds(5).toNanos());
        assertThatThrownBy(cached::get).hasMessage("table dropped");
        assertThat(cached.get()).as("the failure is not kept: read again at once").isEqualTo(4);
        assertThat(reads).hasValue(4);
    }

    @Test
    void aCallerWaitsForAReadAtMostTheTimeoutAndLaterCallersShareIt() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        CountDownLatch answer = new CountDownLatch(1);
        AtomicInteger reads = new AtomicInteger();
        Cached<Integer> cached = new Cached<>(() -> {
            reads.incrementAndGet();
            try {
                answer.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return 42;
        }, Duration.ofSeconds(5), Duration.ofMillis(100), System::nanoTime, executor);
        try {
            long start = System.nanoTime();
            assertThatThrownBy(cached::get).isInstanceOf(Cached.ReadTimeoutException.class)
                    .hasMessage("no answer from the database within 100 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThatThrownBy(cached::get).isInstanceOf(Cached.ReadTimeoutException.class);

            answer.countDown();
            StarterTestSupport.await(Duration.ofSeconds(10), "the read's value", () -> {
                try {
                    return cached.get() == 42;
                } catch (Cached.ReadTimeoutException e) {
                    return false;
                }
            });
            assertThat(reads).as("one read, shared by every caller").hasValue(1);
        } finally {
            executor.shutdownNow();
        }
    }
}
