package io.dbqueue.spring;

import io.dbqueue.common.InvalidValueException;

import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/** A {@code dbq.*} property has a value the queue cannot work with; the message starts with the property's name. */
public class InvalidQueuePropertyException extends IllegalArgumentException {

    /**
     * The core's fields whose property is not their kebab-case name under the prefix of the properties they are
     * built from: a queue table's name is its queue's table; a topic's retention policy is flat in its properties;
     * the door's interval for topics is dbq.log.notify-interval.
     */
    private static final Map<String, String> PROPERTIES = Map.of(
            "name", "table",
            "maxAge", "retention-max-age",
            "maxBytes", "retention-max-bytes",
            "topicNotifyInterval", "notify-interval",
            "keyHeader", "per-key.header",
            "maxPerKey", "per-key.max-in-flight",
            "limits.maxPerKey", "per-key.max-in-flight");

    public InvalidQueuePropertyException(String message) {
        super(message);
    }

    private InvalidQueuePropertyException(String message, IllegalArgumentException cause) {
        super(message, cause);
    }

    /**
     * Runs {@code build}, which maps the properties under {@code prefix} to the core's configuration, and reports
     * the core's {@link InvalidValueException} under the property that holds the value: {@code batchSize must be
     * between 1 and 10000, was 0} from {@code dbq.queues.main} becomes {@code dbq.queues.main.batch-size must be
     * between 1 and 10000, was 0}. Any other {@link IllegalArgumentException} keeps its message after the prefix.
     */
    public static <T> T check(String prefix, Supplier<T> build) {
        try {
            return build.get();
        } catch (InvalidValueException e) {
            throw of(prefix, e);
        } catch (InvalidQueuePropertyException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new InvalidQueuePropertyException(prefix + ": " + e.getMessage(), e);
        }
    }

    /** The core's {@code invalid} value reported under the property under {@code prefix} that holds it. */
    static InvalidQueuePropertyException of(String prefix, InvalidValueException invalid) {
        return new InvalidQueuePropertyException(property(prefix, invalid.field()) + " " + invalid.rule() + ", was "
                + invalid.value(), invalid);
    }

    /** The property under {@code prefix} that the core's {@code field} is bound from. */
    static String property(String prefix, String field) {
        return prefix + "." + PROPERTIES.getOrDefault(field, field).replaceAll("([a-z0-9])([A-Z])", "$1-$2")
                .toLowerCase(Locale.ROOT);
    }
}
