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

    /**
     * The longest duration a setting or a delay may have: 100 years, beyond any task's, and well within what a
     * duration in nanoseconds (292 years) and a PostgreSQL interval in microseconds can hold.
     */
    public static final Duration LONGEST = Duration.ofDays(36_525);

    /** A duration that is not null, longer than zero and at most {@link #LONGEST}: "must be positive". */
    public static void positive(String field, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidValueException(field, "must be positive", value);
        }
        atMostLongest(field, value);
    }

    /**
     * Why PostgreSQL text cannot store {@code text} as given, or null when it can: a NUL character, which text cannot
     * hold, or one half of a UTF-16 surrogate pair without the other, which is no character and which the driver's
     * UTF-8 encoding would store as '?' (so that two different texts, such as two idempotency keys, would be stored
     * as one). Names the character's index: "contains a NUL character (U+0000) at index 3, which ...".
     */
    public static String unstorable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\0') {
                return "contains a NUL character (U+0000) at index " + i + ", which PostgreSQL text cannot store";
            }
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return String.format("contains an unpaired UTF-16 surrogate (U+%04X) at index %d, which is no"
                            + " character and would be stored as '?'", (int) c, i);
                }
            }
        }
        return null;
    }

    /** A duration that is not null, not negative and at most {@link #LONGEST}: "must be zero or positive". */
    public static void notNegative(String field, Duration value) {
        if (value == null || value.isNegative()) {
            throw new InvalidValueException(field, "must be zero or positive", value);
        }
        atMostLongest(field, value);
    }

    /** A duration of at most {@link #LONGEST}: "must be at most 100 years". */
    public static void atMostLongest(String field, Duration value) {
        if (value.compareTo(LONGEST) > 0) {
            throw new InvalidValueException(field, "must be at most 100 years (" + LONGEST.toDays() + " days)", value);
        }
    }
}
