package io.dbqueue.bench.driver.postgres;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.DbQueue;
import io.dbqueue.bench.driver.CellContext;
import io.dbqueue.bench.driver.Driver;
import io.dbqueue.bench.driver.InProcessMeasurement;
import io.dbqueue.bench.driver.Load;
import io.dbqueue.bench.driver.Producers;
import io.dbqueue.bench.driver.Repetition;
import io.dbqueue.bench.metrics.Meter;
import io.dbqueue.bench.metrics.Payloads;
import io.dbqueue.bench.workload.DriverName;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.queue.PollSettings;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.Task;
import io.dbqueue.queue.Wakeup;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The library in-process, used like any application uses it: through its front door, {@link DbQueue},
 * a producer for the producer threads' batches and workers with the experiment's poll settings,
 * claiming the workload's consumer batch (the cell's batch size by default). With the workload's
 * wakeup notify or adaptive, the door's notifier and LISTEN connection wake the idle workers; with
 * poll (the default) they look every 100 ms. The door also vacuums the table as it does for any
 * application. A message counts as processed when the library reports its finish committed. Either
 * side can run alone: 0 producers drain the backlog, 0 consumers only enqueue.
 * As {@code direct-history}, the queue keeps its finished tasks for {@link #HISTORY} ({@link QueueConfig#history()}),
 * so that the two drivers in one run show what the history costs.
 */
public final class DirectDriver implements Driver {

    /** The retention of {@code direct-history}: a day, kept in hourly partitions. */
    static final Duration HISTORY = Duration.ofDays(1);

    private final DriverName name;
    private final Duration history; // null: finished tasks are deleted

    public DirectDriver() {
        this(DriverName.DIRECT, null);
    }

    private DirectDriver(DriverName name, Duration history) {
        this.name = name;
        this.history = history;
    }

    /** The {@code direct-history} driver: the library with {@link #HISTORY} kept. */
    public static DirectDriver keepingHistory() {
        return new DirectDriver(DriverName.DIRECT_HISTORY, HISTORY);
    }

    @Override
    public DriverName name() {
        return name;
    }

    @Override
    public Repetition run(CellContext context) throws Exception {
        Workload workload = context.workload();
        int batchSize = context.cell().batchSize();
        // the notifier's and the listener's connections besides the producers' and the workers'
        int connections = workload.producers() + workload.consumers() + (workload.wakeup() != Wakeup.POLL ? 2 : 0);
        try (HikariDataSource pool = context.server().dataSource(connections)) {
            return InProcessMeasurement.run(context, meter -> {
                AtomicReference<Throwable> failure = new AtomicReference<>();
                DbQueue door = DbQueue.builder(pool).listener(new Processed(meter, failure))
                        .shutdownTimeout(Duration.ofSeconds(10)).build();
                QueueLocation location = context.location();
                QueueProducer producer = door.producer(location, workload.wakeup());
                if (workload.consumers() > 0) {
                    door.consume(QueueConfig.of(location).withThreads(workload.consumers()).withMode(workload.mode())
                            .withPoll(PollSettings.DEFAULT.withBatchSize(workload.claimBatch(batchSize)))
                            .withWakeup(workload.wakeup()).withHistory(history), batch -> {
                    });
                }
                Producers producers = Producers.start(workload, batchSize, meter, () -> sender(producer, workload, location),
                        failure);
                return new Load(producers, door::close, failure);
            });
        }
    }

    /** A producer thread's sender: on a layout with priorities, its batches cycle through the workload's. */
    private static Producers.Sender sender(QueueProducer producer, Workload workload, QueueLocation location) {
        if (workload.priorities() == 0 || !location.table().layout().priorities()) {
            return producer::enqueueAll;
        }
        int[] sent = {0};
        return payloads -> producer.enqueueAll(payloads, Duration.ZERO, sent[0]++ % workload.priorities());
    }

    /**
     * Reports claims and finished tasks to the meter, and a worker's failure (a claim or an answer that failed; the
     * library backs off and goes on) as the load's, which fails the repetition: otherwise it is stored as measured,
     * with the throughput the failures left.
     */
    private record Processed(Meter meter, AtomicReference<Throwable> failure) implements QueueListener {
        @Override
        public void picked(QueueLocation queue, List<Task> tasks, long claimNanos) {
            meter.claimed(tasks.size(), claimNanos);
        }

        @Override
        public void finished(QueueLocation queue, List<Task> tasks) {
            DirectDriver.meter(meter, tasks);
        }

        @Override
        public void crashed(QueueLocation queue, Throwable error) {
            failure.compareAndSet(null, error);
        }
    }

    /** Counts finished tasks on the meter, each with the time stamp its payload carries. */
    static void meter(Meter meter, List<Task> tasks) {
        long[] stamps = StampBuffer.forBatch(tasks.size());
        for (int i = 0; i < tasks.size(); i++) {
            stamps[i] = Payloads.stamp(tasks.get(i).payload());
        }
        meter.processed(stamps, tasks.size());
    }
}
