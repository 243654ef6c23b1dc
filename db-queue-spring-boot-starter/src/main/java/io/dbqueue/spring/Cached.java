package io.dbqueue.spring;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A value read at most once per {@code maxAge}, so that metric scrapes and health probes do not query the database
 * over and over; a failed read is kept as long, and thrown again.
 */
public final class Cached<T> implements Supplier<T> {

    public static final Duration MAX_AGE = Duration.ofSeconds(5);

    private final Supplier<T> read;
    private final long maxAgeNanos;
    private final LongSupplier clock;
    private T value;
    private RuntimeException failure;
    private Long readAt; // null before the first read

    public Cached(Supplier<T> read, Duration maxAge, LongSupplier clock) {
        this.read = read;
        this.maxAgeNanos = maxAge.toNanos();
        this.clock = clock;
    }

    /** Read at most once per {@link #MAX_AGE}. */
    public Cached(Supplier<T> read) {
        this(read, MAX_AGE, System::nanoTime);
    }

    @Override
    public synchronized T get() {
        long now = clock.getAsLong();
        if (readAt == null || now - readAt >= maxAgeNanos) {
            try {
                value = read.get();
                failure = null;
            } catch (RuntimeException e) {
                failure = e;
            }
            readAt = now;
        }
        if (failure != null) {
            throw failure;
        }
        return value;
    }
}
