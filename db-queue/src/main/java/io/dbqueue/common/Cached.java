package io.dbqueue.common;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A value read at most once per {@code maxAge}, so that metric scrapes and health probes do not query the database
 * over and over. The read runs on a daemon thread, one at a time, and callers meanwhile share it. Once the value is
 * older than {@code maxAge}, a call starts a new read and answers at once with the value it has, for up to
 * {@link #STALE_LIMIT} more: a read that takes longer than the timeout (a count of a deep backlog) must not fail every
 * probe. With a max age of zero every call reads anew and waits for it: a check that must see the database now (is
 * it reachable?) never answers with an old value. Without such a value a caller waits at most {@code timeout}, so
 * that a database that does not answer cannot hold up a scrape or a probe. A failed read drops the value: the next
 * call reads again and waits for it, so the failure shows, and a value is back as soon as the database is.
 */
public final class Cached<T> implements Supplier<T> {

    public static final Duration MAX_AGE = Duration.ofSeconds(5);
    public static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** How long past {@code maxAge} a value is still answered while a new read runs. */
    public static final Duration STALE_LIMIT = Duration.ofMinutes(1);

    private static final ExecutorService READERS = Executors.newCachedThreadPool(read -> {
        Thread thread = new Thread(read, "dbq-reader");
        thread.setDaemon(true);
        return thread;
    });

    private final Supplier<T> read;
    private final long maxAgeNanos;
    private final Duration timeout;
    private final LongSupplier clock;
    private final Executor executor;
    private T value;
    private Long readAt; // when the value's read ended; null before the first successful read
    private CompletableFuture<T> reading; // the read in progress (or finished, not yet settled), or null
    private volatile long readEndedAt; // noted by the read in progress, the only one, before its future completes

    /** @param clock nanoseconds, as {@link System#nanoTime()}; {@code executor} runs the reads */
    Cached(Supplier<T> read, Duration maxAge, Duration timeout, LongSupplier clock, Executor executor) {
        this.read = read;
        this.maxAgeNanos = maxAge.toNanos();
        this.timeout = timeout;
        this.clock = clock;
        this.executor = executor;
    }

    /** Read at most once per {@code maxAge}, waited for at most {@code timeout}. */
    public Cached(Supplier<T> read, Duration maxAge, Duration timeout) {
        this(read, maxAge, timeout, System::nanoTime, READERS);
    }

    /** Read at most once per {@link #MAX_AGE}, waited for at most {@link #TIMEOUT}. */
    public Cached(Supplier<T> read) {
        this(read, MAX_AGE, TIMEOUT);
    }

    /**
     * The value read less than {@code maxAge} ago; else, while a new read runs, the last value if it is less than
     * {@link #STALE_LIMIT} older than that; else the new read's.
     *
     * @throws ReadTimeoutException when the read takes longer than the timeout; it goes on, and a later call may
     *                              take its value
     * @throws RuntimeException     what the read threw
     */
    @Override
    public T get() {
        return await(fetch(), System.nanoTime() + timeout.toNanos());
    }

    /**
     * As {@link #get()}, without waiting: the value it would answer at once. Else the read it would wait for is
     * started, or shared, and this throws {@link ReadTimeoutException}. For a gauge: a scrape of many must not wait a
     * timeout for each while the database does not answer; a value read since shows at the next.
     */
    public T getNow() {
        CompletableFuture<T> fetched = fetch();
        if (!fetched.isDone()) {
            throw new ReadTimeoutException(Duration.ZERO);
        }
        return await(fetched, System.nanoTime());
    }

    /**
     * What {@link #get()} waits for, without waiting: the value it may answer at once, or the read it shares, started
     * if need be. A caller of several values starts them all, then {@link #await}s each by one deadline.
     */
    public synchronized CompletableFuture<T> fetch() {
        if (reading != null && reading.isDone()) {
            settleWhenDone(reading); // its callback may not have run yet, though a caller already has its value
        }
        long age = readAt == null ? Long.MAX_VALUE : clock.getAsLong() - readAt;
        if (age < maxAgeNanos) {
            return CompletableFuture.completedFuture(value);
        }
        CompletableFuture<T> current = reading;
        if (current == null) {
            current = CompletableFuture.supplyAsync(this::readNoted, executor);
            reading = current;
            settleWhenDone(current);
        }
        if (maxAgeNanos > 0 && !current.isDone() && age - maxAgeNanos < STALE_LIMIT.toNanos()) {
            return CompletableFuture.completedFuture(value);
        }
        return current;
    }

    /**
     * The value of {@code fetched} (from {@link #fetch()}), as {@link #get()} answers it, waiting at most until
     * {@code deadline} ({@link System#nanoTime()}) and never longer than the timeout.
     */
    public T await(CompletableFuture<T> fetched, long deadline) {
        long wait = Math.min(deadline - System.nanoTime(), timeout.toNanos());
        try {
            return fetched.get(Math.max(0, wait), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new ReadTimeoutException(timeout);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading", e);
        }
    }

    /**
     * Reads, noting when the read ended before its future completes: a caller may have the value before the read
     * is settled, so when it is settled says nothing about the value's age.
     */
    private T readNoted() {
        T result = read.get();
        readEndedAt = clock.getAsLong();
        return result;
    }

    /** Keeps {@code read}'s outcome once it is done: at once if it is. */
    private void settleWhenDone(CompletableFuture<T> read) {
        read.whenComplete((result, failure) -> settle(read, result, failure));
    }

    /** Settles a read once, whichever of its callback and {@link #fetch()} comes first. */
    private synchronized void settle(CompletableFuture<T> finished, T result, Throwable failure) {
        if (reading != finished) {
            return;
        }
        reading = null;
        value = failure == null ? result : null;
        readAt = failure == null ? readEndedAt : null;
    }

    /** A read that has not answered within its timeout. */
    public static final class ReadTimeoutException extends IllegalStateException {

        ReadTimeoutException(Duration timeout) {
            super("no answer from the database within " + timeout.toMillis() + " ms");
        }
    }
}
