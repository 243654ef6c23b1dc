package io.dbqueue.common;

import java.time.Duration;

/**
 * The configuration checks that the core's types share. Each throws an {@link InvalidValueException}
 * naming {@code field} and the rule the value broke; a rule of one type only is written where it is
 * checked.
 */
public final class Checks {

    private Checks() {
    }

    /** {@code value} from {@code min} to {@code max}, both included: "must be between 1 and 1000". */
    public static void between(String field, int value, int min, int max) {
        if (value < min || value > max) {
            throw new InvalidValueException(field, "must be between " + min + " and " + max, value);
        }
    }

    /** {@code value} of {@code min} or more: "must be at least 1". */
    public static void atLeast(String field, int value, int min) {
        if (value < min) {
            throw new InvalidValueException(field, "must be at least " + min, value);
        }
    }

    /** {@code value} of 0 or more: "must be zero or positive". */
    public static void notNegative(String field, long value) {
        if (value < 0) {
            throw new InvalidValueException(field, "must be zero or positive", value);
        }
    }

    /** A duration that is not null and longer than zero: "must be positive". */
    public static void positive(String field, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidValueException(field, "must be positive", value);
        }
    }

    /** A duration that is not null and not negative: "must be zero or positive". */
    public static void notNegative(String field, Duration value) {
        if (value == null || value.isNegative()) {
            throw new InvalidValueException(field, "must be zero or positive", value);
        }
    }
}
