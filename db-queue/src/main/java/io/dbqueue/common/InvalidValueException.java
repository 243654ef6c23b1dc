package io.dbqueue.common;

/**
 * A configuration value the queue cannot work with. {@link #field()} names the value as the core's
 * types call it and {@link #rule()} says what it must be, so a framework can report the same failure
 * under its own names without reading the message.
 *
 * <p>How fields are named: a value a record checks in its constructor by the record's component
 * name ({@code batchSize} of {@code PollSettings}, {@code maxAttempts} of {@code RetryPolicy}); a
 * value a method or constructor checks by its parameter's name ({@code interval} of
 * {@code VacuumWatch.start}, {@code retention} of {@code IdempotencyKeys.purge}). Every record checks
 * its own components, so a field keeps its name wherever the record is used ({@code RetryPolicy}'s
 * {@code maxAttempts} also inside {@code QueueConfig.retry}); a framework maps the pair of the type
 * it builds and the field to its own name. A check that looks into a part of a value dots the path
 * from that value ({@code location.table} of the {@code QueueConfig} that
 * {@code QueueWorkers.startGroup} compares with its group's table). Arguments of operations, not
 * configuration (payloads, keys and delays of an enqueue, limits of a page, a topic named to
 * {@code LogSchema.describe}), fail with a plain {@link IllegalArgumentException}.
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

    /** The value's name in the core's types, e.g. {@code pollInterval}; a part of a value is dotted. */
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
