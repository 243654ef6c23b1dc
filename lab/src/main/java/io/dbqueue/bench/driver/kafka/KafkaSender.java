package io.dbqueue.bench.driver.kafka;

import io.dbqueue.bench.driver.Producers;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

/**
 * One producer thread's {@link KafkaProducer}: acks=all and idempotence, records without a key (the
 * default partitioner keeps a partition per batch of bytes, then moves on). A batch is sent, flushed
 * at once rather than after {@code linger.ms}, and counts as enqueued only when the broker has
 * acknowledged every record of it, as the library's batch counts when its transaction commits.
 */
final class KafkaSender implements Producers.Sender {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final KafkaProducer<String, String> producer;
    private final String topic;
    private final List<Future<RecordMetadata>> acks = new ArrayList<>();

    KafkaSender(String bootstrapServers, String topic) {
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
        this.topic = topic;
    }

    @Override
    public void send(List<String> payloads) throws Exception {
        acks.clear();
        for (String payload : payloads) {
            acks.add(producer.send(new ProducerRecord<>(topic, payload)));
        }
        producer.flush();
        for (Future<RecordMetadata> ack : acks) {
            ack.get();
        }
    }

    @Override
    public void close() {
        producer.close(CLOSE_TIMEOUT);
    }
}
