package io.dbqueue.producer;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Turns request bodies into validated messages, or says precisely what is wrong with them: the JSON
 * types here, the message's constraints by Bean Validation.
 */
@Component
public class MessageParser {

    private static final List<String> FIELDS = List.of("message", "testId");

    private final ObjectMapper json;
    private final ProducerProperties properties;
    private final Validator validator;

    public MessageParser(ObjectMapper json, ProducerProperties properties, Validator validator) {
        this.json = json;
        this.properties = properties;
        this.validator = validator;
    }

    public Message message(byte[] body) {
        return message(tree(body), "");
    }

    /** All messages of a {@code /batch} body; any invalid element rejects the whole batch. */
    public List<Message> batch(byte[] body) {
        JsonNode root = tree(body);
        if (!root.isArray()) {
            throw new InvalidMessageException("body must be a JSON array of messages, was " + kind(root));
        }
        if (root.isEmpty() || root.size() > properties.maxBatchMessages()) {
            throw new InvalidMessageException("a batch must hold 1 to " + properties.maxBatchMessages()
                    + " messages, this one holds " + root.size());
        }
        List<Message> messages = new ArrayList<>(root.size());
        for (int i = 0; i < root.size(); i++) {
            messages.add(message(root.get(i), "[" + i + "]."));
        }
        return messages;
    }

    /** The payload stored in the queue: the message as canonical JSON. */
    public String payload(Message message) {
        return json.writeValueAsString(message);
    }

    private JsonNode tree(byte[] body) {
        if (body.length == 0) {
            throw new InvalidMessageException("request body is empty");
        }
        try {
            return json.reader().with(StreamReadFeature.STRICT_DUPLICATE_DETECTION).readTree(body);
        } catch (JacksonException e) {
            throw new InvalidMessageException("malformed JSON: " + e.getOriginalMessage());
        }
    }

    private Message message(JsonNode node, String path) {
        if (!node.isObject()) {
            throw new InvalidMessageException(where(path) + "must be a JSON object {\"message\": string, \"testId\": integer}, was "
                    + kind(node));
        }
        // a field we would drop is refused: the stored message is what was sent, and a key's fingerprint covers it all
        for (String name : node.propertyNames()) {
            if (!FIELDS.contains(name)) {
                throw new InvalidMessageException("field '" + path + name + "' is not a field of a message " + FIELDS);
            }
        }
        JsonNode message = field(node, "message");
        if (message != null && !message.isString()) {
            throw new InvalidMessageException("field '" + path + "message' must be a string, was " + kind(message));
        }
        JsonNode testId = field(node, "testId");
        if (testId != null && (!testId.isIntegralNumber() || !testId.canConvertToLong())) {
            throw new InvalidMessageException("field '" + path + "testId' must be an integer, was " + kind(testId));
        }
        Message parsed = new Message(message == null ? null : message.asString(), testId == null ? null : testId.asLong());
        Optional<ConstraintViolation<Message>> violation = validator.validate(parsed).stream()
                .min(Comparator.comparing(v -> v.getPropertyPath().toString()));
        if (violation.isPresent()) {
            throw new InvalidMessageException("field '" + path + violation.get().getPropertyPath() + "' "
                    + violation.get().getMessage());
        }
        return parsed;
    }

    /** The field, or null when it is absent or JSON null. */
    private static JsonNode field(JsonNode node, String name) {
        JsonNode value = node.get(name);
        return value == null || value.isNull() ? null : value;
    }

    private static String where(String path) {
        return path.isEmpty() ? "body " : "element " + path.substring(0, path.length() - 1) + " ";
    }

    private static String kind(JsonNode node) {
        return node.getNodeType().name().toLowerCase();
    }
}
