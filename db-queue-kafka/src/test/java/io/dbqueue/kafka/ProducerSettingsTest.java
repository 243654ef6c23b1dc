package io.dbqueue.kafka;

import io.dbqueue.common.InvalidValueException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProducerSettingsTest {

    @Test
    void theCallersSettingsGetTheIdempotentProducerWithAcksAll() {
        Map<String, Object> settings = ProducerSettings.of(Map.of("bootstrap.servers", "k:9092", "linger.ms", 2));
        assertEquals("k:9092", settings.get("bootstrap.servers"));
        assertEquals(2, settings.get("linger.ms"));
        assertEquals("true", settings.get("enable.idempotence"));
        assertEquals("all", settings.get("acks"));
        assertEquals(StringSerializer.class.getName(), settings.get("key.serializer"));
        assertEquals(StringSerializer.class.getName(), settings.get("value.serializer"));
    }

    @Test
    void theRequiredSettingsMayBeRepeatedInKafkasForms() {
        Map<String, Object> settings = ProducerSettings.of(Map.of("bootstrap.servers", "k:9092",
                "enable.idempotence", true, "acks", "ALL", "value.serializer", StringSerializer.class));
        assertEquals("k:9092", settings.get("bootstrap.servers"));
        assertEquals("true", settings.get("enable.idempotence"));
        assertEquals("all", settings.get("acks"));
        assertEquals(StringSerializer.class.getName(), settings.get("value.serializer"));
    }

    @Test
    void aSettingThatContradictsTheRelaysPromiseIsRefusedByName() {
        assertEquals("producerConfig.acks", refused(Map.of("bootstrap.servers", "k:9092", "acks", "1")));
        assertEquals("producerConfig.enable.idempotence",
                refused(Map.of("bootstrap.servers", "k:9092", "enable.idempotence", false)));
        assertEquals("producerConfig.value.serializer",
                refused(Map.of("bootstrap.servers", "k:9092", "value.serializer", "my.Serializer")));
        assertEquals("producerConfig.bootstrap.servers", refused(Map.of("acks", "all")));
    }

    @Test
    void aRequestSizeAboveTheTopicsMessageSizeIsRefusedWithBothValues() {
        Map<String, Object> defaults = ProducerSettings.of(Map.of("bootstrap.servers", "k:9092"));
        ProducerSettings.checkRequestSize(defaults, "orders", 1_048_588); // Kafka's defaults fit each other
        InvalidValueException e = assertThrows(InvalidValueException.class,
                () -> ProducerSettings.checkRequestSize(defaults, "orders", 4_000));
        assertEquals("producerConfig.max.request.size", e.field());
        assertEquals(1_048_576, e.value());
        assertTrue(e.getMessage().contains("must be at most 4000, the max.message.bytes of Kafka topic orders"),
                e.getMessage());
        ProducerSettings.checkRequestSize(ProducerSettings.of(Map.of("bootstrap.servers", "k:9092",
                "max.request.size", "4000")), "orders", 4_000);
    }

    private static String refused(Map<String, Object> given) {
        return assertThrows(InvalidValueException.class, () -> ProducerSettings.of(given)).field();
    }
}
