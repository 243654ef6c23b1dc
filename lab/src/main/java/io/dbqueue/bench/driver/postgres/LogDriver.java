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
import io.dbqueue.bench.workload.LogLoad;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.log.GroupConfig;
import io.dbqueue.log.LogListener;
import io.dbqueue.log.LogMessage;
import io.dbqueue.log.LogSchema;
import io.dbqueue.log.RecordHandler;
import io.dbqueue.maintenance.RetentionPolicy;
import io.dbqueue.log.Topic;
import io.dbqueue.log.TopicProducer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

/**
 * The library's log, used like any application uses it: a topic of {@link LogLoad#partitions()}
 * partitions, the workload's producers appending batches of the cell's batch size through one
 * {@link TopicProducer}, and {@link LogLoad#groups()} consumer groups of the workload's
 * {@code consumers} members each, at the workload's delivery mode, woken by the producer's
 * notifications, and the workload's retention every 10 seconds, all through the front door,
 * {@link DbQueue}. A record counts as processed when a group's handler gets it, once per group:
 * the cell's throughput is the read rate summed over the groups, its enqueue throughput the write
 * rate.
 */
public final class LogDriver implements Driver {

    static final String TOPIC = "bench_log";
    private static final Duration NOTIFY_INTERVAL = Duration.ofMillis(5);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(100);
    private static final Duration RETENTION_INTERVAL = Duration.ofSeconds(10);

    @Override
    public DriverName name() {
        return DriverName.LOG;
    }

    @Override
    public Repetition run(CellContext context) throws Exception {
        Workload workload = context.workload();
        LogLoad log = workload.log();
        int members = log.groups() * workload.consumers();
        try (HikariDataSource pool = context.server().dataSource(workload.producers() + members + 2)) {
            Topic topic = new Topic(TOPIC, log.partitions(), log.segmentSize());
            LogSchema.recreate(pool, topic);
            return InProcessMeasurement.run(context, tables(topic), log.groups(), meter -> {
                AtomicReference<Throwable> failure = new AtomicReference<>();
                DbQueue door = door(pool, TOPIC, log.retentionPolicy(), failure);
                TopicProducer producer = door.topicProducer(TOPIC);
                for (int g = 0; g < log.groups(); g++) {
                    for (int m = 0; m < workload.consumers(); m++) {
                        GroupConfig config = member(TOPIC, workload, g, m).withMode(workload.mode());
                        door.consumeTopic(config, counting(meter, workload.readBatch()));
                    }
                }
                Producers producers = Producers.start(workload, context.cell().batchSize(), meter,
                        () -> payloads -> producer.sendAll(payloads.stream().map(LogMessage::of).toList()), failure);
                return new Load(producers, door::close, failure);
            });
        }
    }

    /** Member {@code m} of group {@code g}, reading batches of the workload's read batch. */
    public static GroupConfig member(String topic, Workload workload, int g, int m) {
        return GroupConfig.of(topic, "group-" + (g + 1)).withBatchSize(workload.readBatch())
                .withPollInterval(POLL_INTERVAL).withMemberId("group-" + (g + 1) + "-member-" + (m + 1));
    }

    /** The topic's tables, whose figures the server probe reads. */
    public static List<String> tables(Topic topic) {
        List<String> tables = new ArrayList<>(List.of(topic.name() + "_partitions", topic.name() + "_groups"));
        IntStream.range(0, topic.partitions()).forEach(p -> tables.add(topic.name() + "_p" + p));
        return tables;
    }

    /**
     * The front door: the producer's wakeups, the members' LISTEN connection and the retention, if any. A member's
     * failure (a read, a handler or a commit that failed; the member backs off and goes on) becomes the load's
     * {@code failure}, which fails the repetition.
     */
    public static DbQueue door(HikariDataSource pool, String topic, RetentionPolicy retention,
                               AtomicReference<Throwable> failure) {
        DbQueue.Builder builder = DbQueue.builder(pool).topicNotifyInterval(NOTIFY_INTERVAL)
                .shutdownTimeout(Duration.ofSeconds(10)).logListener(new LogListener() {
                    @Override
                    public void crashed(String topicName, String group, Exception e) {
                        failure.compareAndSet(null, e);
                    }
                });
        if (retention != null) {
            builder.retention(topic, retention, RETENTION_INTERVAL);
        }
        return builder.build();
    }

    /** Meters each record of a batch as processed, by the stamp in its payload. */
    public static RecordHandler counting(Meter meter, int readBatch) {
        long[] stamps = new long[readBatch];
        return batch -> {
            int count = batch.records().size();
            for (int i = 0; i < count; i++) {
                stamps[i] = Payloads.stamp(batch.records().get(i).payload());
            }
            meter.processed(stamps, count);
        };
    }
}
