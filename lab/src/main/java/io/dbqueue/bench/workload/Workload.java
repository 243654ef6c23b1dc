package io.dbqueue.bench.workload;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.postgres.ServerProfile;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.PollSettings;
import io.dbqueue.queue.Wakeup;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * What one bench run measures: the matrix (layouts x batch sizes x producers x consumers x drivers), how often each cell
 * is repeated, and the load every cell gets. A profile is a workload file shipped with the lab;
 * flags override single fields.
 *
 * @param messages     when positive, a repetition measures until this many messages are processed
 *                     (capped by {@code duration}); otherwise it measures for {@code duration}
 * @param producerRate messages per second over all producers; 0 = as fast as possible
 * @param producerCounts producer threads, a sweep axis of the matrix: a cell per value; a driver reads its
 *                     cell's one value from {@link #producers()}
 * @param consumerCounts consumer threads, likewise
 * @param maxBacklog   producers wait while more than this many messages are enqueued but not processed
 * @param backlog      messages put into the table before the warm-up (they are not measured)
 * @param mode         the consumers' delivery mode (direct, raw-sql and stack)
 * @param stack        how the {@code stack} driver's test-app sends the load
 * @param log          the topic and readers of the pub/sub drivers ({@code log}, {@code kafka})
 * @param serverProfile the embedded server's settings beyond durability: stock unless a tuning is named
 * @param wakeup       how the {@code direct} driver's idle consumers learn of new tasks: poll (every 100 ms),
 *                     notify or adaptive (its producers notify)
 * @param consumerBatch the consumers' claim (prefetch, fetch, read) batch apart from the producers' batch;
 *                     0 = the cell's batch size for the queues, {@code log.read_batch} for the pub/sub drivers
 * @param priorities   the {@code direct} driver on the layouts with priorities: each producer's batches cycle through
 *                     priorities 0 to {@code priorities - 1} (other layouts' cells enqueue without, so that one run
 *                     compares them); 0 = enqueued without a priority
 * @param holdXmin     whether a transaction holds the server's xmin horizon through each repetition, as a forgotten
 *                     session or a long report does: vacuum then removes nothing deleted meanwhile
 */
public record Workload(String name, List<String> layouts, List<Integer> batchSizes, List<DriverName> drivers,
                       int repeat, Duration warmup, Duration duration, long messages, int messageSize,
                       int producerRate, List<Integer> producerCounts, List<Integer> consumerCounts,
                       long maxBacklog, long backlog,
                       DeliveryMode mode, StackLoad stack, LogLoad log, ServerProfile serverProfile,
                       Wakeup wakeup, int consumerBatch, int priorities, boolean holdXmin) {

    public static final int MIN_MESSAGE_SIZE = 24;

    /** A delivery mode as workload files and flags spell it: at-least-once, exactly-once, at-most-once. */
    public static String modeName(DeliveryMode mode) {
        return mode.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static DeliveryMode mode(String name) {
        for (DeliveryMode mode : DeliveryMode.values()) {
            if (modeName(mode).equals(name)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("mode must be one of at-least-once, exactly-once, at-most-once, was '"
                + name + "'");
    }

    /** A wakeup mode as workload files and flags spell it: poll, notify, adaptive. */
    public static String wakeupName(Wakeup wakeup) {
        return wakeup.name().toLowerCase(Locale.ROOT);
    }

    public static Wakeup wakeup(String name) {
        for (Wakeup wakeup : Wakeup.values()) {
            if (wakeupName(wakeup).equals(name)) {
                return wakeup;
            }
        }
        throw new IllegalArgumentException("wakeup must be one of poll, notify, adaptive, was '" + name + "'");
    }

    public Workload {
        Objects.requireNonNull(name, "name");
        layouts = List.copyOf(nonEmpty("layouts", layouts));
        batchSizes = List.copyOf(nonEmpty("batch_sizes", batchSizes));
        drivers = List.copyOf(nonEmpty("drivers", drivers));
        layouts.forEach(LabLayout::table);
        for (int size : batchSizes) {
            if (size < 1 || size > PollSettings.MAX_BATCH_SIZE) {
                throw new IllegalArgumentException("batch size must be between 1 and " + PollSettings.MAX_BATCH_SIZE
                        + ", was " + size);
            }
        }
        atLeast("repeat", repeat, 1);
        atLeast("message_size", messageSize, MIN_MESSAGE_SIZE);
        atLeast("producer_rate", producerRate, 0);
        producerCounts = List.copyOf(nonEmpty("producers", producerCounts));
        consumerCounts = List.copyOf(nonEmpty("consumers", consumerCounts));
        producerCounts.forEach(n -> atLeast("producers", n, 0));
        consumerCounts.forEach(n -> atLeast("consumers", n, 0));
        boolean noProducers = producerCounts.contains(0);
        boolean noConsumers = consumerCounts.contains(0);
        if ((noProducers || noConsumers) && !drivers.stream().allMatch(DriverName::oneSided)) {
            throw new IllegalArgumentException((noProducers ? "producers" : "consumers") + " is 0, which only the"
                    + " drivers " + DriverName.all().stream().filter(DriverName::oneSided).map(DriverName::toString)
                    .collect(Collectors.joining(", ")) + " can run (one side alone); drivers: " + drivers);
        }
        if (noProducers && noConsumers) {
            throw new IllegalArgumentException("producers and consumers are both 0: nothing would run");
        }
        if (noProducers && backlog == 0) {
            throw new IllegalArgumentException("producers is 0 (dequeue alone) but backlog is 0: nothing to dequeue");
        }
        atLeast("messages", messages, 0);
        atLeast("max_backlog", maxBacklog, 1);
        atLeast("backlog", backlog, 0);
        refuseFor(drivers, backlog > 0, d -> !d.fillsBacklog(), "backlog is " + backlog + ", which only the drivers of one"
                + " queue table start from (brokers and topics start empty, and every shard would hold one)");
        refuseFor(drivers, producerRate > 0, d -> d == DriverName.STACK, "producer_rate is " + producerRate
                + ", but the stack's test-app sends closed loop at its own concurrency (stack_concurrency)");
        refuseFor(drivers, holdXmin, d -> d.shards() > 0, "hold_xmin holds the first server's horizon only, not the other"
                + " shards'");
        Objects.requireNonNull(warmup, "warmup");
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("warmup must be zero or positive, was " + warmup);
        }
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive, was " + duration);
        }
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(stack, "stack");
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(serverProfile, "server_profile");
        Objects.requireNonNull(wakeup, "wakeup");
        if (consumerBatch < 0 || consumerBatch > PollSettings.MAX_BATCH_SIZE) {
            throw new IllegalArgumentException("consumer_batch must be between 0 (the cell's batch size) and "
                    + PollSettings.MAX_BATCH_SIZE + ", was " + consumerBatch);
        }
        atLeast("priorities", priorities, 0);
        if (priorities > 0 && layouts.stream().noneMatch(l -> LabLayout.table(l).layout().priorities())) {
            throw new IllegalArgumentException("priorities needs a layout with priorities ("
                    + Layout.priorityPresetNames() + "), was " + priorities + " with layouts " + layouts);
        }
    }

    /** Refuses, when {@code setting} holds, the {@code drivers} that {@code cannot} matches, saying why and which. */
    private static void refuseFor(List<DriverName> drivers, boolean setting, Predicate<DriverName> cannot, String why) {
        List<DriverName> refused = setting ? drivers.stream().filter(cannot).toList() : List.of();
        if (!refused.isEmpty()) {
            throw new IllegalArgumentException(why + ": run the drivers " + refused + " without it");
        }
    }

    /** The queue consumers' claim batch in a cell of {@code batchSize}: {@code consumer_batch}, or the cell's. */
    public int claimBatch(int batchSize) {
        return consumerBatch > 0 ? consumerBatch : batchSize;
    }

    /** The pub/sub readers' batch: {@code consumer_batch}, or {@code log.read_batch}. */
    public int readBatch() {
        return consumerBatch > 0 ? consumerBatch : log.readBatch();
    }

    /** This cell's producer threads: the workload's one value; see {@link #forCell}. */
    public int producers() {
        return single("producers", producerCounts);
    }

    /** This cell's consumer threads: the workload's one value; see {@link #forCell}. */
    public int consumers() {
        return single("consumers", consumerCounts);
    }

    private static int single(String field, List<Integer> values) {
        if (values.size() != 1) {
            throw new IllegalStateException(field + " is a sweep " + values + ": a driver reads its cell's one value"
                    + " from Workload.forCell(cell)");
        }
        return values.get(0);
    }

    /** The workload a driver runs for {@code cell}: the cell's producers and consumers as its single values. */
    public Workload forCell(Cell cell) {
        return toBuilder().producers(cell.producers()).consumers(cell.consumers()).build();
    }

    /**
     * Every cell of the matrix, in run order: the drivers of one layout, batch size, producers and consumers
     * run back to back, so that a drift in the machine's background load affects both sides of a comparison
     * alike. A broker's cells come with the first layout's, under {@link Cell#NO_LAYOUT}; so do the minimal
     * queue's ({@code pgbench-minimal}, its own table whatever the layout), under the first layout.
     */
    public List<Cell> cells() {
        return layouts.stream().flatMap(layout -> batchSizes.stream().flatMap(batch -> producerCounts.stream()
                .flatMap(producers -> consumerCounts.stream().flatMap(consumers -> drivers.stream()
                        .filter(driver -> !driver.oncePerBatchSize() || layout.equals(layouts.get(0)))
                        .map(driver -> new Cell(driver, driver.isBroker() ? Cell.NO_LAYOUT : layout, batch,
                                producers, consumers))))))
                .toList();
    }

    /** A rough estimate of the wall time of the whole matrix, for the progress display. */
    public Duration estimatedTime() {
        return Cell.SETUP.plus(warmup).plus(duration).multipliedBy((long) cells().size() * repeat);
    }

    /** A builder starting from this workload, for overriding single fields. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Changes single fields of a workload; {@link #build} validates the result. */
    public static final class Builder {
        private final String name;
        private List<String> layouts;
        private List<Integer> batchSizes;
        private List<DriverName> drivers;
        private int repeat;
        private Duration warmup;
        private Duration duration;
        private long messages;
        private int messageSize;
        private int producerRate;
        private List<Integer> producers;
        private List<Integer> consumers;
        private long maxBacklog;
        private long backlog;
        private DeliveryMode mode;
        private StackLoad stack;
        private LogLoad log;
        private ServerProfile serverProfile;
        private Wakeup wakeup;
        private int consumerBatch;
        private int priorities;
        private boolean holdXmin;

        private Builder(Workload w) {
            name = w.name;
            layouts = w.layouts;
            batchSizes = w.batchSizes;
            drivers = w.drivers;
            repeat = w.repeat;
            warmup = w.warmup;
            duration = w.duration;
            messages = w.messages;
            messageSize = w.messageSize;
            producerRate = w.producerRate;
            producers = w.producerCounts;
            consumers = w.consumerCounts;
            maxBacklog = w.maxBacklog;
            backlog = w.backlog;
            mode = w.mode;
            stack = w.stack;
            log = w.log;
            serverProfile = w.serverProfile;
            wakeup = w.wakeup;
            consumerBatch = w.consumerBatch;
            priorities = w.priorities;
            holdXmin = w.holdXmin;
        }

        public Builder layouts(List<String> value) {
            layouts = value;
            return this;
        }

        public Builder batchSizes(List<Integer> value) {
            batchSizes = value;
            return this;
        }

        public Builder drivers(List<DriverName> value) {
            drivers = value;
            return this;
        }

        public Builder repeat(int value) {
            repeat = value;
            return this;
        }

        public Builder warmup(Duration value) {
            warmup = value;
            return this;
        }

        public Builder duration(Duration value) {
            duration = value;
            return this;
        }

        public Builder messages(long value) {
            messages = value;
            return this;
        }

        public Builder messageSize(int value) {
            messageSize = value;
            return this;
        }

        public Builder producerRate(int value) {
            producerRate = value;
            return this;
        }

        /** One number of producer threads for every cell. */
        public Builder producers(int value) {
            return producerCounts(List.of(value));
        }

        /** One number of consumer threads for every cell. */
        public Builder consumers(int value) {
            return consumerCounts(List.of(value));
        }

        /** Numbers of producer threads to sweep: a cell per value. */
        public Builder producerCounts(List<Integer> values) {
            producers = values;
            return this;
        }

        /** Numbers of consumer threads to sweep: a cell per value. */
        public Builder consumerCounts(List<Integer> values) {
            consumers = values;
            return this;
        }

        public Builder backlog(long value) {
            backlog = value;
            return this;
        }

        public Builder maxBacklog(long value) {
            maxBacklog = value;
            return this;
        }

        public Builder mode(DeliveryMode value) {
            mode = value;
            return this;
        }

        public Builder stack(StackLoad value) {
            stack = value;
            return this;
        }

        public Builder log(LogLoad value) {
            log = value;
            return this;
        }

        public Builder serverProfile(ServerProfile value) {
            serverProfile = value;
            return this;
        }

        public Builder wakeup(Wakeup value) {
            wakeup = value;
            return this;
        }

        public Builder consumerBatch(int value) {
            consumerBatch = value;
            return this;
        }

        public Builder priorities(int value) {
            priorities = value;
            return this;
        }

        public Builder holdXmin(boolean value) {
            holdXmin = value;
            return this;
        }

        public Workload build() {
            return new Workload(name, layouts, batchSizes, drivers, repeat, warmup, duration, messages, messageSize,
                    producerRate, producers, consumers, maxBacklog, backlog, mode, stack, log, serverProfile, wakeup,
                    consumerBatch, priorities, holdXmin);
        }
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
