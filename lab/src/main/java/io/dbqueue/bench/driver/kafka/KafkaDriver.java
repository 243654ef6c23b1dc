package io.dbqueue.bench.driver.kafka;

import io.dbqueue.bench.driver.CellContext;
import io.dbqueue.bench.driver.InProcessMeasurement;
import io.dbqueue.bench.driver.Load;
import io.dbqueue.bench.driver.Producers;
import io.dbqueue.bench.driver.Repetition;
import io.dbqueue.bench.metrics.BrokerProcess;
import io.dbqueue.bench.workload.DriverName;
import io.dbqueue.bench.workload.LogLoad;
import io.dbqueue.bench.workload.Workload;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The log's workload on Apache Kafka (4.4.0, the lab's pom), on a single-node KRaft broker the lab
 * starts itself ({@link KafkaSharedBroker}): a topic of {@link LogLoad#partitions()} partitions and
 * replication factor 1, the workload's producers writing batches of the cell's batch size
 * ({@link KafkaSender}: acks=all, idempotent, a batch counts when every record is acknowledged),
 * and {@link LogLoad#groups()} consumer groups of the workload's {@code consumers} members each
 * ({@link KafkaGroups}: commit after each poll, then count). As for {@code log}, the cell's
 * throughput is the read rate summed over the groups, its enqueue throughput the write rate. Each
 * repetition gets a topic of its own, deleted after it, so that none reads another's records.
 *
 * <ul>
 *   <li>{@code kafka}: Kafka's default flush policy. The broker acknowledges a record once it is in
 *   its log segment's page cache and leaves the write-back to the OS: no fsync per message, unlike
 *   the per-commit fsync PostgreSQL runs with here (Kafka expects replication, absent on one node,
 *   to provide durability).</li>
 *   <li>{@code kafka-fsync}: the same broker, with the topic config {@code flush.messages=1}: the
 *   leader fsyncs its log after every append, before acks=all is answered, so a record is on disk
 *   when its batch counts, as with PostgreSQL's synchronous_commit=on. Like a group commit, one fsync
 *   covers the records that arrived in the same append.</li>
 * </ul>
 */
public final class KafkaDriver implements SharedBrokerDriver {

    private static final long TOPIC_TIMEOUT_SECONDS = 30;
    /** Numbers the repetitions' topics: one broker serves the whole bench run. */
    private static final AtomicInteger TOPICS = new AtomicInteger();

    private final DriverName name;
    private final Map<String, String> topicConfig;

    private KafkaDriver(DriverName name, Map<String, String> topicConfig) {
        this.name = name;
        this.topicConfig = topicConfig;
    }

    /** {@code kafka}: the OS flushes. */
    public static KafkaDriver osFlush() {
        return new KafkaDriver(DriverName.KAFKA, Map.of());
    }

    /** {@code kafka-fsync}: an fsync before each acknowledgement. */
    public static KafkaDriver fsync() {
        return new KafkaDriver(DriverName.KAFKA_FSYNC, Map.of(TopicConfig.FLUSH_MESSAGES_INTERVAL_CONFIG, "1"));
    }

    @Override
    public DriverName name() {
        return name;
    }

    /** The configs of the repetitions' topics. */
    Map<String, String> topicConfig() {
        return topicConfig;
    }

    @Override
    public Repetition run(CellContext context) throws Exception {
        Workload workload = context.workload();
        LogLoad log = workload.log();
        String servers = KafkaSharedBroker.bootstrapServers();
        String topic = name + "-" + TOPICS.incrementAndGet();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
            admin.createTopics(List.of(new NewTopic(topic, log.partitions(), (short) 1).configs(topicConfig))).all()
                    .get(TOPIC_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            try {
                BrokerProcess broker = KafkaSharedBroker.process();
                return InProcessMeasurement.run(context, List.of(), log.groups(), broker, meter -> {
                    AtomicReference<Throwable> failure = new AtomicReference<>();
                    KafkaGroups groups = KafkaGroups.start(servers, topic, log, workload.readBatch(),
                            workload.consumers(), meter, failure);
                    Producers producers = Producers.start(workload, context.cell().batchSize(), meter,
                            () -> new KafkaSender(servers, topic), failure);
                    return new Load(producers, groups, failure);
                });
            } finally {
                // not awaited here: closing the admin client waits for the request, the broker removes the files later
                admin.deleteTopics(List.of(topic));
            }
        }
    }
}
