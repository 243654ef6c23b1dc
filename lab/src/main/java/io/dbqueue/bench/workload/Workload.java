package io.dbqueue.bench.workload;

import io.dbqueue.Layout;
import io.dbqueue.PollSettings;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What one bench run measures: the matrix (layouts x batch sizes x drivers), how often each cell
 * is repeated, and the load every cell gets. A profile is a workload file shipped with the lab;
 * flags override single fields.
 *
 * @param messages     when positive, a repetition measures until this many messages are processed
 *                     (capped by {@code duration}); otherwise it measures for {@code duration}
 * @param producerRate messages per second over all producers; 0 = as fast as possible
 * @param maxBacklog   producers wait while more than this many messages are enqueued but not processed
 * @param backlog      messages put into the table before the warm-up (they are not measured)
 */
public record Workload(String name, List<String> layouts, List<Integer> batchSizes, List<String> drivers,
                       int repeat, Duration warmup, Duration duration, long messages, int messageSize,
                       int producerRate, int producers, int consumers, long maxBacklog, long backlog) {

    public static final List<String> DRIVERS = List.of("direct", "raw-sql", "stack", "rabbitmq");
    /** Drivers that do not use a queue table: their cells run once per batch size, whatever the layouts. */
    public static final Set<String> BROKERS = Set.of("rabbitmq");
    public static final int MIN_MESSAGE_SIZE = 24;

    public Workload {
        Objects.requireNonNull(name, "name");
        layouts = List.copyOf(nonEmpty("layouts", layouts));
        batchSizes = List.copyOf(nonEmpty("batch_sizes", batchSizes));
        drivers = List.copyOf(nonEmpty("drivers", drivers));
        layouts.forEach(Layout::named);
        for (int size : batchSizes) {
            if (size < 1 || size > PollSettings.MAX_BATCH_SIZE) {
                throw new IllegalArgumentException("batch size must be between 1 and " + PollSettings.MAX_BATCH_SIZE
                        + ", was " + size);
            }
        }
        for (String driver : drivers) {
            if (!DRIVERS.contains(driver)) {
                throw new IllegalArgumentException("unknown driver '" + driver + "'; known drivers: " + DRIVERS);
            }
        }
        atLeast("repeat", repeat, 1);
        atLeast("message_size", messageSize, MIN_MESSAGE_SIZE);
        atLeast("producer_rate", producerRate, 0);
        atLeast("producers", producers, 1);
        atLeast("consumers", consumers, 1);
        atLeast("messages", messages, 0);
        atLeast("max_backlog", maxBacklog, 1);
        atLeast("backlog", backlog, 0);
        Objects.requireNonNull(warmup, "warmup");
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("warmup must be zero or positive, was " + warmup);
        }
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive, was " + duration);
        }
    }

    /**
     * Every cell of the matrix, in run order: the drivers of one layout and batch size run back to back,
     * so that a drift in the machine's background load affects both sides of a comparison alike. A
     * broker's cells come with the first layout's, under {@link Cell#NO_LAYOUT}.
     */
    public List<Cell> cells() {
        return layouts.stream().flatMap(layout -> batchSizes.stream().flatMap(batch -> drivers.stream()
                .filter(driver -> !BROKERS.contains(driver) || layout.equals(layouts.get(0)))
                .map(driver -> new Cell(driver, BROKERS.contains(driver) ? Cell.NO_LAYOUT : layout, batch))))
                .toList();
    }

    /** A rough estimate of the wall time of the whole matrix, for the progress display. */
    public Duration estimatedTime() {
        return Cell.SETUP.plus(warmup).plus(duration).multipliedBy((long) cells().size() * repeat);
    }

    public Workload withLayouts(List<String> value) {
        return new Workload(name, value, batchSizes, drivers, repeat, warmup, duration, messages, messageSize,
                producerRate, producers, consumers, maxBacklog, backlog);
    }

    public Workload withBatchSizes(List<Integer> value) {
        return new Workload(name, layouts, value, drivers, repeat, warmup, duration, messages, messageSize,
                producerRate, producers, consumers, maxBacklog, backlog);
    }

    public Workload withDrivers(List<String> value) {
        return new Workload(name, layouts, batchSizes, value, repeat, warmup, duration, messages, messageSize,
                producerRate, producers, consumers, maxBacklog, backlog);
    }

    public Workload withRepeat(int value) {
        return new Workload(name, layouts, batchSizes, drivers, value, warmup, duration, messages, messageSize,
                producerRate, producers, consumers, maxBacklog, backlog);
    }

    public Workload withWarmup(Duration value) {
        return new Workload(name, layouts, batchSizes, drivers, repeat, value, duration, messages, messageSize,
                producerRate, producers, consumers, maxBacklog, backlog);
    }

    public Workload withDuration(Duration value) {
        return new Workload(name, layouts, batchSizes, drivers, repeat, warmup, value, messages, messageSize,
                producerRate, producers, consumers, maxBacklog, backlog);
    }

    public Workload withMessages(long value) {
        return new Workload(name, layouts, batchSizes, drivers, repeat, warmup, duration, value, messageSize,
                producerRate, producers, consumers, maxBacklog, backlog);
    }

    public Workload withLoad(int newMessageSize, int newProducerRate, int newProducers, int newConsumers) {
        return new Workload(name, layouts, batchSizes, drivers, repeat, warmup, duration, messages, newMessageSize,
                newProducerRate, newProducers, newConsumers, maxBacklog, backlog);
    }

    public Workload withBacklog(long newBacklog, long newMaxBacklog) {
        return new Workload(name, layouts, batchSizes, drivers, repeat, warmup, duration, messages, messageSize,
                producerRate, producers, consumers, newMaxBacklog, newBacklog);
    }

    private static <T> List<T> nonEmpty(String field, List<T> values) {
        if (values == null || values.isEmpty()) {
            throw new IllegalArgumentException(field + " must name at least one value");
        }
        return values;
    }

    private static void atLeast(String field, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(field + " must be at least " + min + ", was " + value);
        }
    }
}
