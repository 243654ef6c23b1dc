package io.dbqueue.bench.driver.pgbench;

import io.dbqueue.bench.metrics.Meter;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * Counts a pgbench load from the database, since pgbench's own figures (transactions per second
 * times the batch size) overstate a consumer whose claims come back partial or empty. Every
 * {@link #PERIOD_MS} ms one statement reads how many ids the table's sequence has handed out
 * ({@code last_value}, with {@code is_called}) and how many rows the table holds ({@code count(*)}):
 * enqueued = ids handed out since the start, processed = rows at the start + enqueued - rows now (a
 * row leaves the table when its finish, or the at-most-once delete, commits).
 *
 * <p>The counts feed a {@link Meter}, so that the lab's usual {@code Window} measures the window,
 * its per-second series and its edges. Fed as stepwise samples, a window's edges would fall up to a
 * sampling period off; so the meter is moved every {@link #FEED_MS} ms to the counts interpolated
 * between the last two samples at {@link #LAG_MS} ms ago: it runs a constant lag behind the table,
 * which shifts the window by that lag but keeps its length exact.
 *
 * <p>A sample also drives the producers' hold-back: above the workload's {@code max_backlog} rows,
 * the producers' pgbench is paused until the table is back under it; and the library's vacuum of
 * its own table ({@link PgbenchVacuum}).
 */
final class PgbenchCounter implements AutoCloseable {

    static final long PERIOD_MS = 100;
    static final long LAG_MS = PERIOD_MS + 20;
    private static final long FEED_MS = 5;
    private static final int STAMPS = 4096;

    /** A reading of the table at {@code nanos}: ids handed out and rows present. */
    record Reading(long nanos, long handedOut, long rows) {
    }

    private final Connection connection;
    private final PreparedStatement read;
    private final Meter meter;
    private final Counts counts;
    private final long maxBacklog;
    private final AtomicReference<Throwable> failure;
    private final Thread thread;
    private final PgbenchVacuum vacuum;
    private volatile PgbenchProcess producers;
    private volatile boolean running = true;

    private PgbenchCounter(Connection connection, PreparedStatement read, Reading start, boolean consuming, Meter meter,
                           long maxBacklog, PgbenchVacuum vacuum, AtomicReference<Throwable> failure) {
        this.connection = connection;
        this.vacuum = vacuum;
        this.read = read;
        this.meter = meter;
        this.counts = new Counts(start, consuming);
        this.maxBacklog = maxBacklog;
        this.failure = failure;
        this.thread = new Thread(this::loop, "bench-pgbench-counter");
        thread.setDaemon(true);
    }

    /**
     * Takes the first reading of {@code table} on {@code connection} (which it closes) and starts
     * sampling; call before the load starts. {@code consuming}: whether any consumer runs ({@link
     * Counts}). {@code vacuum}, when given, hears of every reading's
     * processed count and is closed with the counter.
     */
    static PgbenchCounter start(Connection connection, String table, boolean consuming, Meter meter, long maxBacklog,
                                PgbenchVacuum vacuum, AtomicReference<Throwable> failure) throws SQLException {
        try {
            String sequence;
            try (PreparedStatement ps = connection.prepareStatement("SELECT pg_get_serial_sequence(?, 'id')")) {
                ps.setString(1, table);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    sequence = rs.getString(1);
                }
            }
            if (sequence == null) {
                throw new IllegalStateException("table " + table + " has no sequence on its id column");
            }
            // table and sequence are names from the layout and PostgreSQL, quoted by pg_get_serial_sequence
            PreparedStatement read = connection.prepareStatement("SELECT (SELECT CASE WHEN is_called THEN last_value"
                    + " ELSE last_value - 1 END FROM " + sequence + "), (SELECT count(*) FROM " + table + ")");
            PgbenchCounter counter = new PgbenchCounter(connection, read, reading(read), consuming, meter, maxBacklog, vacuum,
                    failure);
            counter.thread.start();
            return counter;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            if (vacuum != null) {
                try {
                    vacuum.close();
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            throw e;
        }
    }

    /** The producers to pause while too many messages wait. */
    void holdBack(PgbenchProcess producers) {
        this.producers = producers;
    }

    private static Reading reading(PreparedStatement read) throws SQLException {
        long before = System.nanoTime();
        try (ResultSet rs = read.executeQuery()) {
            rs.next();
            long handedOut = rs.getLong(1);
            long rows = rs.getLong(2);
            return new Reading(before + (System.nanoTime() - before) / 2, handedOut, rows);
        }
    }

    private void loop() {
        long period = TimeUnit.MILLISECONDS.toNanos(PERIOD_MS);
        long lag = TimeUnit.MILLISECONDS.toNanos(LAG_MS);
        long next = System.nanoTime() + period;
        long[] zeros = new long[STAMPS];
        LongConsumer processed = n -> {
            for (long left = n; left > 0; left -= STAMPS) {
                meter.processed(zeros, (int) Math.min(STAMPS, left));
            }
        };
        try {
            while (running) {
                long now = System.nanoTime();
                if (now >= next) {
                    Reading r = reading(read);
                    counts.add(r);
                    steer(r.rows());
                    if (vacuum != null) {
                        vacuum.processed(counts.processed(r));
                    }
                    next += period;
                    if (next < now) {
                        next = now + period;
                    }
                }
                counts.feed(System.nanoTime() - lag, n -> meter.enqueued((int) n), processed);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(FEED_MS));
            }
        } catch (SQLException | RuntimeException e) {
            if (running) {
                failure.compareAndSet(null, new IllegalStateException("counting the pgbench load failed: "
                        + e.getMessage(), e));
            }
        }
    }

    private void steer(long rows) {
        PgbenchProcess p = producers;
        if (p == null) {
            return;
        }
        if (rows > maxBacklog) {
            p.pause();
        } else {
            p.resume();
        }
    }

    @Override
    public void close() throws SQLException, InterruptedException {
        running = false;
        thread.join(TimeUnit.SECONDS.toMillis(10));
        PgbenchProcess p = producers;
        if (p != null) {
            p.resume();
        }
        try {
            connection.close();
        } finally {
            if (vacuum != null) {
                vacuum.close();
            }
        }
    }

    /**
     * The counts between readings: enqueued and processed since the first reading, interpolated
     * linearly between the last two readings, and what has been passed on so far. Pure, for tests.
     */
    static final class Counts {
        private final Reading start;
        private Reading previous;
        private Reading last;
        private long enqueuedFed;
        private long processedFed;

        private final boolean consuming;

        /**
         * {@code consuming} false: no consumer runs (enqueue alone), so nothing leaves the table and
         * what was enqueued is the rows committed since the start, exactly; an id handed out to an
         * insert still in flight is not counted as enqueued and then processed.
         */
        Counts(Reading start, boolean consuming) {
            this.start = start;
            this.previous = start;
            this.last = start;
            this.consuming = consuming;
        }

        void add(Reading reading) {
            previous = last;
            last = reading;
        }

        long enqueued(Reading r) {
            return consuming ? r.handedOut() - start.handedOut() : r.rows() - start.rows();
        }

        long processed(Reading r) {
            return consuming ? start.rows() + enqueued(r) - r.rows() : 0;
        }

        /** Passes on what was enqueued and processed up to {@code nanos}, as far as the readings tell. */
        void feed(long nanos, LongConsumer enqueued, LongConsumer processed) {
            double e;
            double p;
            if (nanos >= last.nanos() || last.nanos() == previous.nanos()) {
                e = enqueued(last);
                p = processed(last);
            } else if (nanos <= previous.nanos()) {
                e = enqueued(previous);
                p = processed(previous);
            } else {
                double f = (double) (nanos - previous.nanos()) / (last.nanos() - previous.nanos());
                e = enqueued(previous) + f * (enqueued(last) - enqueued(previous));
                p = processed(previous) + f * (processed(last) - processed(previous));
            }
            // a reading can see an id handed out for an insert not yet committed, so processed may step back
            // for a moment: the meter only goes forward, and catches up once the table does
            long e2 = (long) Math.floor(e) - enqueuedFed;
            if (e2 > 0) {
                enqueuedFed += e2;
                enqueued.accept(e2);
            }
            long p2 = (long) Math.floor(p) - processedFed;
            if (p2 > 0) {
                processedFed += p2;
                processed.accept(p2);
            }
        }
    }
}
