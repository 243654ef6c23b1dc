package io.dbqueue.kafka;

import io.dbqueue.common.InvalidValueException;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The relay's producer configuration: the caller's (its servers, security, tuning) with the settings
 * the relay's promise rests on, which the caller may repeat but not change: the idempotent producer
 * (no duplicate or reordering from its own retries) with acks=all, one request in flight (so that a
 * record's failure is heard before the records after it are sent, {@link RelayProducer}), and string
 * keys and values.
 */
final class ProducerSettings {

    static final String FIELD = "producerConfig";

    private static final Map<String, Object> REQUIRED = Map.of(
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());

    private ProducerSettings() {
    }

    /** {@code given} with the required settings; fails naming the first setting that contradicts them. */
    static Map<String, Object> of(Map<String, Object> given) {
        Objects.requireNonNull(given, FIELD);
        if (given.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG) == null) {
            throw new InvalidValueException(FIELD + "." + ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    "must name the Kafka servers", null);
        }
        Map<String, Object> settings = new HashMap<>(given);
        REQUIRED.forEach((name, value) -> {
            Object old = settings.put(name, value);
            if (old != null && !sameSetting(old, value)) {
                throw new InvalidValueException(FIELD + "." + name, "must be " + value
                        + " (the relay's ordering and acknowledgement rest on it) or left out", old);
            }
        });
        return Map.copyOf(settings);
    }

    /** A setting given as a String, a Boolean or (serializers) a Class, as Kafka accepts them. */
    private static boolean sameSetting(Object given, Object required) {
        String text = given instanceof Class<?> type ? type.getName() : given.toString();
        return text.trim().equalsIgnoreCase(required.toString());
    }
}
