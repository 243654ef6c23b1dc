package io.dbqueue.spring;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import java.lang.reflect.Type;
import java.util.Objects;

/** JSON payloads through a Jackson 3 {@link JsonMapper}, Spring Boot's own when there is one. */
public final class JacksonPayloadSerializer implements PayloadSerializer {

    private final JsonMapper mapper;

    public JacksonPayloadSerializer(JsonMapper mapper) {
        this.mapper = Objects.requireNonNull(mapper, "mapper");
    }

    @Override
    public String serialize(Object message) {
        if (message instanceof String text) {
            return text;
        }
        try {
            return mapper.writeValueAsString(message);
        } catch (JacksonException e) {
            throw new PayloadException("cannot write " + message.getClass().getName() + " as JSON: "
                    + e.getOriginalMessage(), e);
        }
    }

    @Override
    public Object deserialize(String payload, Type type) {
        if (type == String.class) {
            return payload;
        }
        Object message;
        try {
            message = payload == null ? null : mapper.readValue(payload, mapper.constructType(type));
        } catch (JacksonException e) {
            throw new PayloadException("payload is not a " + type.getTypeName() + ": " + e.getOriginalMessage(), e);
        }
        if (message == null) { // no payload, or JSON null, which Jackson reads as null: a listener would get null
            throw new PayloadException("payload is not a " + type.getTypeName() + ": it is null", null);
        }
        return message;
    }
}
