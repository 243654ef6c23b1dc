package io.dbqueue.spring;

import java.lang.reflect.Type;

/**
 * Turns messages into task payloads and back. The starter's is {@link JacksonPayloadSerializer} on
 * Spring Boot's Jackson 3 {@code JsonMapper}; declare a bean of this type to replace it. A
 * {@code String} message is always its own payload, on either side.
 */
public interface PayloadSerializer {

    /** Strings only: what the starter uses when Jackson is not on the classpath and no serializer bean is declared. */
    PayloadSerializer STRINGS = new PayloadSerializer() {
        @Override
        public String serialize(Object message) {
            if (message instanceof String text) {
                return text;
            }
            throw new PayloadException("cannot write a " + message.getClass().getName() + " without a serializer: add"
                    + " spring-boot-starter-jackson, or declare a PayloadSerializer bean", null);
        }

        @Override
        public Object deserialize(String payload, Type type) {
            if (type == String.class) {
                return payload;
            }
            throw new PayloadException("cannot read a " + type.getTypeName() + " without a serializer: add"
                    + " spring-boot-starter-jackson, or declare a PayloadSerializer bean", null);
        }
    };

    String serialize(Object message);

    /** The payload as {@code type}; a payload that cannot be read throws {@link PayloadException}. */
    Object deserialize(String payload, Type type);

    /** A payload that is not a {@code type}, or a message that cannot be written. */
    final class PayloadException extends RuntimeException {
        public PayloadException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
