package io.dbqueue.kafka;

import io.dbqueue.log.LogRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** A log record as the relay publishes it. */
final class KafkaRecords {

    private KafkaRecords() {
    }

    /**
     * The record for {@code kafkaTopic}: the same partition number, key and payload; the append's time
     * as its timestamp; its log offset, in decimal, as the {@link KafkaRelay#OFFSET_HEADER} header.
     */
    static ProducerRecord<String, String> of(String kafkaTopic, LogRecord record) {
        byte[] offset = Long.toString(record.offset()).getBytes(StandardCharsets.US_ASCII);
        return new ProducerRecord<>(kafkaTopic, record.partition(), record.appendedAt().toEpochMilli(), record.key(),
                record.payload(), List.of(new RecordHeader(KafkaRelay.OFFSET_HEADER, offset)));
    }
}
