package io.dbqueue.kafka;

import io.dbqueue.common.InvalidValueException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ProducerSettingsTest {

    @Test
    void theCallersSettingsGetTheIdempotentProducerWithAcksAll() {
        Map<String, Object> settings = ProducerSettings.of(Map.of("bootstrap.servers", "k:9092", "linger.ms", 2));
        assertEquals("k:9092", settings.get("bootstrap.servers"));
        assertEquals(2, settings.get("linger.ms"));
        assertEquals("true", settings.get("enable.idempotence"));
        assertEquals("all", settings.get("acks"));
        assertEquals("1", settings.get("max.in.flight.requests.per.connection"));
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
        assertEquals("producerConfig.max.in.flight.requests.per.connection",
                refused(Map.of("bootstrap.servers", "k:9092", "max.in.flight.requests.per.connection", 5)));
        assertEquals("producerConfig.enable.idempotence",
                refused(Map.of("bootstrap.servers", "k:9092", "enable.idempotence", false)));
        assertEquals("producerConfig.value.serializer",
                refused(Map.of("bootstrap.servers", "k:9092", "value.serializer", "my.Serializer")));
        assertEquals("producerConfig.bootstrap.servers", refused(Map.of("acks", "all")));
    }

    private static String refused(Map<String, Object> given) {
        return assertThrows(InvalidValueException.class, () -> ProducerSettings.of(given)).field();
    }
}
