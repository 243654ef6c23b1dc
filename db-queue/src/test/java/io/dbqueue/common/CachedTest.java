package io.dbqueue.common;

import io.dbqueue.Await;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

        assertEquals(1, cached.get());
        clock.addAndGet(Duration.ofSeconds(4).toNanos());
        assertEquals(1, cached.get(), "cached");
        clock.addAndGet(Duration.ofSeconds(1).toNanos());
        assertEquals(2, cached.get(), "refreshed");

        clock.addAndGet(Duration.ofSeconds(5).toNanos());
        assertEquals("table dropped", assertThrows(IllegalStateException.class, cached::get).getMessage());
        assertEquals(4, cached.get(), "the failure is not kept: read again at once");
        assertEquals(4, reads.get());
    }

    /** A value is as old as the end of its read: a read slower than the max age must not start the next at once. */
    @Test
    void aValueIsAgedFromTheEndOfItsRead() {
        AtomicLong clock = new AtomicLong();
        AtomicInteger reads = new AtomicInteger();
        Cached<Integer> cached = new Cached<>(() -> {
            clock.addAndGet(Duration.ofSeconds(6).toNanos()); // a count of a deep backlog, slower than the max age
            return reads.incrementAndGet();
        }, Duration.ofSeconds(5), Duration.ofSeconds(1), clock::get, Runnable::run);

        assertEquals(1, cached.get());
        clock.addAndGet(Duration.ofSeconds(4).toNanos());
        assertEquals(1, cached.get(), "read 4 s ago, though it began 10 s ago");
        assertEquals(1, reads.get());
        clock.addAndGet(Duration.ofSeconds(1).toNanos());
        assertEquals(2, cached.get(), "read 5 s ago");
    }

    /** A read slower than the timeout (a count of a deep backlog) used to fail every call once the value was stale. */
    @Test
    void aStaleValueIsAnsweredWhileASlowReadRunsUpToTheStaleLimit() throws Exception {
        AtomicLong clock = new AtomicLong();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        AtomicInteger reads = new AtomicInteger();
        CountDownLatch secondAnswers = new CountDownLatch(1);
        CountDownLatch laterFail = new CountDownLatch(1);
        Cached<Integer> cached = new Cached<>(() -> {
            int read = reads.incrementAndGet();
            await(read == 2 ? secondAnswers : read > 2 ? laterFail : new CountDownLatch(0));
            if (read > 2) {
                throw new IllegalStateException("connection refused");
            }
            return read;
        }, Duration.ofSeconds(5), Duration.ofMillis(100), clock::get, executor);
        try {
            assertEquals(1, cached.get());
            clock.addAndGet(Duration.ofSeconds(5).toNanos());
            assertEquals(1, cached.get(), "stale, answered at once while the second read runs");
            clock.addAndGet(Cached.STALE_LIMIT.toNanos() - 1);
            assertEquals(1, cached.get(), "still within the stale limit");
            clock.addAndGet(1);
            assertThrows(Cached.ReadTimeoutException.class, cached::get, "past the limit a caller waits for the read");
            secondAnswers.countDown();
            Await.until(Duration.ofSeconds(10), "the second read's value", () -> answers(cached, 2));

            clock.addAndGet(Duration.ofSeconds(5).toNanos());
            assertEquals(2, cached.get(), "stale while the third read runs");
            Await.until(Duration.ofSeconds(10), "the third read started", () -> reads.get() == 3);
            laterFail.countDown();
            // the failure drops the value: callers wait for a new read again, and see its failure
            Await.until(Duration.ofSeconds(10), "a caller sees the failure", () -> {
                try {
                    cached.get();
                    return false;
                } catch (IllegalStateException e) {
                    return e.getMessage().equals("connection refused");
                }
            });
        } finally {
            executor.shutdownNow();
        }
    }

    /** A reachability check reads on every call: it must never say "up" from a reading taken before an outage. */
    @Test
    void withAMaxAgeOfZeroEveryCallWaitsForItsOwnRead() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        CountDownLatch answer = new CountDownLatch(1);
        AtomicInteger reads = new AtomicInteger();
        Cached<Boolean> reachable = new Cached<>(() -> {
            if (reads.incrementAndGet() > 1) {
                await(answer);
            }
            return true;
        }, Duration.ZERO, Duration.ofMillis(100), System::nanoTime, executor);
        try {
            assertTrue(reachable.get());
            assertThrows(Cached.ReadTimeoutException.class, reachable::get, "no old answer while the read hangs");
        } finally {
            answer.countDown();
            executor.shutdownNow();
        }
    }

    /** getNow answers a value it has at once, and else starts the read and throws without waiting for it. */
    @Test
    void getNowNeverWaitsForARead() throws Exception {
        BlockingQueue<Runnable> reads = new LinkedBlockingQueue<>();
        AtomicLong clock = new AtomicLong();
        Cached<Integer> depth = new Cached<>(() -> 7, Duration.ofSeconds(5), Duration.ofSeconds(30), clock::get,
                reads::add);
        assertThrows(Cached.ReadTimeoutException.class, depth::getNow, "no value yet: the read is only started");
        assertEquals(1, reads.size());
        reads.remove().run();
        assertEquals(7, depth.getNow());
        assertEquals(0, reads.size(), "a fresh value: no read");
    }

    /**
     * A read is done before its callback has settled it. Holding the monitor the callback needs keeps it in that
     * window: a reachability check must then start a read of its own, not answer with the finished one's value.
     */
    @Test
    void aFinishedReadWhoseCallbackHasNotRunIsSettledByTheNextFetch() throws Exception {
        BlockingQueue<Runnable> reads = new LinkedBlockingQueue<>();
        AtomicInteger count = new AtomicInteger();
        Cached<Integer> reachable = new Cached<>(count::incrementAndGet, Duration.ZERO, Duration.ofSeconds(30),
                System::nanoTime, reads::add);
        CompletableFuture<Integer> first = reachable.fetch();
        Thread reader = new Thread(reads.remove());
        CompletableFuture<Integer> second;
        synchronized (reachable) {
            reader.start(); // completes the first read; its callback then waits for this monitor
            Await.until(Duration.ofSeconds(10), "the first read done", first::isDone);
            second = reachable.fetch();
        }
        reader.join();
        assertEquals(1, first.join());
        assertEquals(1, reads.size(), "a second read started");
        reads.remove().run();
        assertEquals(2, second.join(), "the second read's value, not the first's");
    }

    /** Values fetched together and awaited by one deadline (the shards' pings): each read once, none waited past it. */
    @Test
    void aFetchedReadIsAwaitedByADeadlineAndNotStartedAgain() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        CountDownLatch answer = new CountDownLatch(1);
        AtomicInteger reads = new AtomicInteger();
        Cached<Boolean> ping = new Cached<>(() -> {
            reads.incrementAndGet();
            await(answer);
            return true;
        }, Duration.ZERO, Duration.ofSeconds(30), System::nanoTime, executor);
        try {
            CompletableFuture<Boolean> fetched = ping.fetch();
            assertThrows(Cached.ReadTimeoutException.class, () -> ping.await(fetched, System.nanoTime()),
                    "a deadline already passed waits no further");
            answer.countDown();
            assertTrue(ping.await(fetched, System.nanoTime() + Duration.ofSeconds(30).toNanos()));
            assertEquals(1, reads.get(), "one read, fetched once and awaited twice");
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void aCallerWaitsForAReadAtMostTheTimeoutAndLaterCallersShareIt() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        CountDownLatch answer = new CountDownLatch(1);
        AtomicInteger reads = new AtomicInteger();
        Cached<Integer> cached = new Cached<>(() -> {
            reads.incrementAndGet();
            await(answer);
            return 42;
        }, Duration.ofSeconds(5), Duration.ofMillis(100), System::nanoTime, executor);
        try {
            long start = System.nanoTime();
            assertEquals("no answer from the database within 100 ms",
                    assertThrows(Cached.ReadTimeoutException.class, cached::get).getMessage());
            assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(5)) < 0, "waited at most about the timeout");
            assertThrows(Cached.ReadTimeoutException.class, cached::get);

            answer.countDown();
            Await.until(Duration.ofSeconds(10), "the read's value", () -> answers(cached, 42));
            assertEquals(1, reads.get(), "one read, shared by every caller");
        } finally {
            executor.shutdownNow();
        }
    }

    /** Whether {@code cached} answers {@code expected}; false while its read is still running. */
    private static boolean answers(Cached<Integer> cached, int expected) {
        try {
            return cached.get() == expected;
        } catch (Cached.ReadTimeoutException e) {
            return false;
        }
    }

    /** A read that waits for {@code latch}, as one waits for a database. */
    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
