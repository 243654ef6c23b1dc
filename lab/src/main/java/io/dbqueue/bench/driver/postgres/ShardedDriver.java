package io.dbqueue.bench.driver.postgres;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.DbQueue;
import io.dbqueue.Placement;
import io.dbqueue.ShardSet;
import io.dbqueue.ShardedDbQueue;
import io.dbqueue.ShardedProducer;
import io.dbqueue.bench.driver.CellContext;
import io.dbqueue.bench.driver.Driver;
import io.dbqueue.bench.driver.InProcessMeasurement;
import io.dbqueue.bench.driver.Load;
import io.dbqueue.bench.driver.Producers;
import io.dbqueue.bench.driver.Repetition;
import io.dbqueue.bench.driver.Shard;
import io.dbqueue.bench.metrics.Meter;
import io.dbqueue.bench.workload.DriverName;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.queue.PollSettings;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.Task;
import io.dbqueue.queue.Wakeup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The library over a shard set ({@code sharded-N}): {@link DbQueue#builder(ShardSet)} on the first N of the
 * run's servers, one queue placed on each ({@link ShardQueues}), the cell's producers and consumers spread
 * over them, everything else as {@link DirectDriver}: the workers' poll settings and wakeup, a pool per
 * shard sized as the direct driver's for its share of the threads. Producers enqueue through
 * {@link ShardedProducer}, which routes each batch to its queue's shard; workers start through
 * {@link ShardedDbQueue#consume}. {@code sharded-1} against {@code direct} in one run is what the router costs.
 */
public final class ShardedDriver implements Driver {

    private final DriverName name;

    public ShardedDriver(int shards) {
        this.name = DriverName.sharded(shards);
    }

    @Override
    public DriverName name() {
        return name;
    }

    @Override
    public Repetition run(CellContext context) throws Exception {
        Workload workload = context.workload();
        int count = name.shards();
        if (context.shards().size() != count) {
            throw new IllegalStateException(name + " needs " + count + " shards (--shards " + count
                    + " or more), the run has " + context.shards().size());
        }
        ShardQueues spread = new ShardQueues(count, workload.producers(), workload.consumers());
        int batchSize = context.cell().batchSize();
        int wakeupConnections = workload.wakeup() != Wakeup.POLL ? 2 : 0;
        List<HikariDataSource> pools = new ArrayList<>();
        try {
            ShardSet.Builder set = ShardSet.builder();
            Placement placement = Placement.hashed();
            Map<String, LongAdder> processed = new LinkedHashMap<>();
            List<QueueLocation> queues = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                Shard shard = context.shards().get(i);
                HikariDataSource pool = shard.server().dataSource(spread.producersOf(i) + spread.consumersOf(i)
                        + wakeupConnections);
                pools.add(pool);
                QueueLocation queue = context.location().table().queue(ShardQueues.queueName(
                        context.location().queueName(), i));
                queues.add(queue);
                set.shard(shard.name(), pool);
                placement = placement.queue(queue.queueName(), shard.name());
                processed.put(shard.name(), new LongAdder());
            }
            ShardSet shardSet = set.build();
            Placement placed = placement;
            return InProcessMeasurement.runSharded(context, processed, meter -> {
                AtomicReference<Throwable> failure = new AtomicReference<>();
                ShardedDbQueue door = DbQueue.builder(shardSet).placement(placed)
                        .shutdownTimeout(Duration.ofSeconds(10))
                        .eachShard((shard, builder) -> builder.listener(
                                new Processed(meter, processed.get(shard), failure)))
                        .build();
                List<ShardedProducer> producers = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    QueueLocation queue = queues.get(i);
                    producers.add(door.producer(queue, workload.wakeup()));
                    door.consume(QueueConfig.of(queue).withThreads(spread.consumersOf(i)).withMode(workload.mode())
                            .withPoll(PollSettings.DEFAULT.withBatchSize(workload.claimBatch(batchSize)))
                            .withWakeup(workload.wakeup()), batch -> {
                    });
                }
                AtomicInteger opened = new AtomicInteger();
                Producers threads = Producers.start(workload, batchSize, meter, () -> producers.get(
                        spread.queueOfProducer(opened.getAndIncrement()))::enqueueAll, failure);
                return new Load(threads, door::close, failure);
            });
        } finally {
            pools.forEach(HikariDataSource::close);
        }
    }

    /** Reports finished tasks to the meter and to their shard's count, and a worker's failure as the load's. */
    private record Processed(Meter meter, LongAdder shardCount, AtomicReference<Throwable> failure)
            implements QueueListener {
        @Override
        public void finished(QueueLocation queue, List<Task> tasks) {
            DirectDriver.meter(meter, tasks);
            shardCount.add(tasks.size());
        }

        @Override
        public void crashed(QueueLocation queue, Throwable error) {
            failure.compareAndSet(null, error);
        }
    }
}
