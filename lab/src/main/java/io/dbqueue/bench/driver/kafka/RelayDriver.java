package io.dbqueue.bench.driver.kafka;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.DbQueue;
import io.dbqueue.bench.driver.CellContext;
import io.dbqueue.bench.driver.InProcessMeasurement;
import io.dbqueue.bench.driver.Load;
import io.dbqueue.bench.driver.Producers;
import io.dbqueue.bench.driver.Repetition;
import io.dbqueue.bench.driver.postgres.LogDriver;
import io.dbqueue.bench.workload.DriverName;
import io.dbqueue.bench.workload.LogLoad;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.kafka.KafkaRelay;
import io.dbqueue.log.LogMessage;
import io.dbqueue.log.LogSchema;
import io.dbqueue.log.RecordHandler;
import io.dbqueue.log.Topic;
import io.dbqueue.log.TopicProducer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

/**
 * The road to Kafka: the log's workload written to the library's log as {@code log} writes it, and
 * relayed to Kafka (the broker of {@code kafka}, {@link KafkaSharedBroker}) by {@link KafkaRelay}s:
 * {@link LogLoad#groups()} relay groups of the workload's {@code consumers} members each, each group
 * into a Kafka topic of its own with as many partitions as the log topic. A record counts as
 * processed when Kafka acknowledged it, before the group commits past it: the latency is the
 * log write's stamp to Kafka's acknowledgement. The server figures cover the topic's tables, the
 * broker's figures the Kafka broker. Each repetition gets Kafka topics of their own, deleted after it.
 */
public final class RelayDriver implements SharedBrokerDriver {

    static final String TOPIC = "bench_relay";
    private static final long TOPIC_TIMEOUT_SECONDS = 30;
    /** Numbers the repetitions' topics: one broker serves the whole bench run. */
    private static final AtomicInteger TOPICS = new AtomicInteger();

    @Override
    public DriverName name() {
        return DriverName.LOG_RELAY;
    }

    @Override
    public Repetition run(CellContext context) throws Exception {
        Workload workload = context.workload();
        LogLoad log = workload.log();
        String servers = KafkaSharedBroker.bootstrapServers();
        int repetition = TOPICS.incrementAndGet();
        List<String> kafkaTopics = IntStream.range(0, log.groups()).mapToObj(g -> name() + "-" + repetition + "-" + g)
                .toList();
        int members = log.groups() * workload.consumers();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers));
             HikariDataSource pool = context.server().dataSource(workload.producers() + members + 2)) {
            admin.createTopics(kafkaTopics.stream().map(t -> new NewTopic(t, log.partitions(), (short) 1)).toList())
                    .all().get(TOPIC_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            try {
                Topic topic = new Topic(TOPIC, log.partitions(), log.segmentSize());
                LogSchema.recreate(pool, topic);
                return InProcessMeasurement.run(context, LogDriver.tables(topic), log.groups(),
                        KafkaSharedBroker.process(), meter -> {
                    AtomicReference<Throwable> failure = new AtomicReference<>();
                    DbQueue door = LogDriver.door(pool, TOPIC, log.retentionPolicy(), failure);
                    TopicProducer producer = door.topicProducer(TOPIC);
                    List<KafkaRelay> relays = new ArrayList<>();
                    for (int g = 0; g < log.groups(); g++) {
                        for (int m = 0; m < workload.consumers(); m++) {
                            RecordHandler counting = LogDriver.counting(meter, workload.readBatch());
                            relays.add(KafkaRelay.start(door, LogDriver.member(TOPIC, workload, g, m),
                                    kafkaTopics.get(g), Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers),
                                    counting::handle));
                        }
                    }
                    Producers producers = Producers.start(workload, context.cell().batchSize(), meter,
                            () -> payloads -> producer.sendAll(payloads.stream().map(LogMessage::of).toList()),
                            failure);
                    return new Load(producers, () -> {
                        relays.forEach(KafkaRelay::close);
                        door.close();
                    }, failure);
                });
            } finally {
                // not awaited here: closing the admin client waits for the request, the broker removes the files later
                admin.deleteTopics(kafkaTopics);
            }
        }
    }
}
