package io.dbqueue.bench.driver.kafka;

import io.dbqueue.bench.metrics.Meter;
import io.dbqueue.bench.metrics.Payloads;
import io.dbqueue.bench.workload.LogLoad;
import io.dbqueue.kafkaserver.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A real broker started from the test classpath: 1,000 messages written in batches to an fsync
 * topic reach both of two consumer groups, each exactly once here (no rebalance after the start).
 * The broker comes from the test classpath, so nothing outside the build can be missing: a broker
 * that does not start fails the test.
 */
class KafkaBrokerTest {

    private static final int MESSAGES = 1_000;
    private static final int BATCH = 100;

    @Test
    void twoGroupsReadEveryMessage(@TempDir Path dir) throws Exception {
        // three members per group on two partitions: the groups settle with an idle member each
        LogLoad log = new LogLoad(2, 2, 50, 100_000, "none");
        Meter meter = new Meter(0, log.groups());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (KafkaBroker broker = KafkaBroker.start(dir, Duration.ofSeconds(60));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("t", log.partitions(), (short) 1)
                    .configs(KafkaDriver.fsync().topicConfig()))).all().get(30, TimeUnit.SECONDS);
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "t");
            Config config = admin.describeConfigs(List.of(topic)).all().get(30, TimeUnit.SECONDS).get(topic);
            assertEquals("1", config.get("flush.messages").value());

            try (KafkaGroups groups = KafkaGroups.start(broker.bootstrapServers(), "t", log, log.readBatch(), 3, meter,
                    failure);
                 KafkaSender sender = new KafkaSender(broker.bootstrapServers(), "t")) {
                Payloads payloads = new Payloads(64);
                for (int sent = 0; sent < MESSAGES; sent += BATCH) {
                    List<String> batch = new ArrayList<>();
                    for (int i = 0; i < BATCH; i++) {
                        batch.add(payloads.create(System.nanoTime()));
                    }
                    sender.send(batch);
                    meter.enqueued(BATCH);
                }
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (meter.waiting() > 0 && System.nanoTime() < deadline && failure.get() == null) {
                    Thread.sleep(20);
                }
                assertNull(failure.get());
                assertEquals(MESSAGES * log.groups(), meter.processedTotal());
                assertEquals(MESSAGES * log.groups(), meter.latencySinceLastCall().getTotalCount(),
                        "every record's stamp measured");
            }
        }
    }
}
