package io.dbqueue.kafka;

import io.dbqueue.log.LogRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class KafkaRecordsTest {

    private static final Instant APPENDED = Instant.parse("2026-11-26T10:15:30.123456Z");

    @Test
    void aRecordKeepsItsPartitionKeyAndPayloadAndCarriesItsTimeAndOffset() {
        ProducerRecord<String, String> record = KafkaRecords.of("orders-k",
                new LogRecord("orders", 7, 12_345, "customer-9", "{\"id\":1}", APPENDED));
        assertEquals("orders-k", record.topic());
        assertEquals(7, record.partition());
        assertEquals("customer-9", record.key());
        assertEquals("{\"id\":1}", record.value());
        assertEquals(APPENDED.toEpochMilli(), record.timestamp());
        assertEquals("12345", new String(record.headers().lastHeader(KafkaRelay.OFFSET_HEADER).value(),
                StandardCharsets.US_ASCII));
    }

    @Test
    void aRecordWithoutKeyStaysWithoutKey() {
        assertNull(KafkaRecords.of("k", new LogRecord("t", 0, 0, null, "p", APPENDED)).key());
    }
}
