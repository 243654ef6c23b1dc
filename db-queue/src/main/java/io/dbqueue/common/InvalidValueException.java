package io.dbqueue.common;

/**
 * A configuration value the queue cannot work with. {@link #field()} names the value as the core's
 * types call it ({@code batchSize}, {@code retry.maxAttempts}) and {@link #rule()} says what it must be,
 * so a framework can report the same failure under its own names without reading the message.
 */
public class InvalidValueException extends IllegalArgumentException {

    private final String field;
    private final String rule;
    private final transient Object value;

    public InvalidValueException(String field, String rule, Object value) {
        super(field + " " + rule + ", was " + value);
        this.field = field;
        this.rule = rule;
        this.value = value;
    }

    /** The value's name in the core's types, e.g. {@code pollInterval}; nested values are dotted. */
    public String field() {
        return field;
    }

    /** What the value must be, e.g. {@code must be between 1 and 10000}. */
    public String rule() {
        return rule;
    }

    /** The value that broke the rule; may be null. */
    public Object value() {
        return value;
    }
}
