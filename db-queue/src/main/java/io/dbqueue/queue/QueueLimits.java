package io.dbqueue.queue;

import io.dbqueue.common.Checks;
import io.dbqueue.common.InvalidValueException;

/**
 * Limits that every consumer of one queue respects together, in whichever process: they are kept in the
 * database ({@link ClaimLimiter}), so three instances with a limit of 50 tasks a second start 50 tasks a second
 * between them, not 150. Every consumer of a queue should be given the same limits. At least once and at most
 * once only: exactly once, a batch's claim, handling and answer are one transaction, which would hold the
 * queue's limit for as long as the handler runs.
 *
 * @param perSecond   tasks started per second across all consumers (a token bucket refilled at this rate);
 *                    0: no rate limit
 * @param burst       the bucket's size: how many tasks may start at once after a quiet spell; 0 without a rate
 *                    limit
 * @param maxInFlight the most tasks being handled at once across all consumers; 0: no limit. A task's place
 *                    is given back when it is answered, or when its lease expires, so a consumer that dies
 *                    gives its places back one lease later
 * @param keyHeader   the task header whose value is a task's key for {@code maxPerKey} (e.g. {@code customer});
 *                    null without a per-key limit
 * @param maxPerKey   the most tasks with the same key being handled at once across all consumers; 0: no limit.
 *                    Tasks without the header are not limited by it, and a key at its limit does not hold back
 *                    the tasks of other keys behind it. Its places come back as the in-flight limit's do. At least
 *                    once only ({@link QueueConfig} refuses it at most once, whose claim deletes tasks rather than
 *                    leasing them)
 */
public record QueueLimits(double perSecond, int burst, int maxInFlight, String keyHeader, int maxPerKey) {

    /** No limit but the consumers' own threads and batch size. */
    public static final QueueLimits NONE = new QueueLimits(0, 0, 0);

    /** The most tasks a second, and the largest burst and in-flight limit, that the limits accept. */
    public static final int MAX = 1_000_000;

    public QueueLimits {
        if (!(perSecond >= 0 && perSecond <= MAX)) {
            throw new InvalidValueException("perSecond", "must be between 0 and " + MAX, perSecond);
        }
        Checks.between("burst", burst, perSecond > 0 ? 1 : 0, perSecond > 0 ? MAX : 0);
        Checks.between("maxInFlight", maxInFlight, 0, MAX);
        Checks.between("maxPerKey", maxPerKey, 0, MAX);
        if ((keyHeader != null) != (maxPerKey > 0)) {
            throw new InvalidValueException("keyHeader", "must be given exactly when maxPerKey is above 0", keyHeader);
        }
        if (keyHeader != null && (keyHeader.isEmpty() || Checks.unstorable(keyHeader) != null)) {
            throw new InvalidValueException("keyHeader", "must be a header name: not empty, no NUL or unpaired surrogate", keyHeader);
        }
    }

    /** Rate and in-flight limits, without a per-key limit. */
    public QueueLimits(double perSecond, int burst, int maxInFlight) {
        this(perSecond, burst, maxInFlight, null, 0);
    }

    /** A rate limit of {@code perSecond} tasks started a second, at most {@code burst} at once. */
    public static QueueLimits rate(double perSecond, int burst) {
        return new QueueLimits(perSecond, burst, 0);
    }

    /** At most {@code maxInFlight} tasks handled at once, across all consumers. */
    public static QueueLimits inFlight(int maxInFlight) {
        return new QueueLimits(0, 0, maxInFlight);
    }

    /**
     * At most {@code maxPerKey} tasks with the same value of the header {@code keyHeader} handled at once, across
     * all consumers: {@code perKey("customer", 1)} runs one task per customer at a time.
     */
    public static QueueLimits perKey(String keyHeader, int maxPerKey) {
        return new QueueLimits(0, 0, 0, keyHeader, maxPerKey);
    }

    public QueueLimits withRate(double value, int valueBurst) {
        return new QueueLimits(value, valueBurst, maxInFlight, keyHeader, maxPerKey);
    }

    public QueueLimits withMaxInFlight(int value) {
        return new QueueLimits(perSecond, burst, value, keyHeader, maxPerKey);
    }

    /** These limits and at most {@code value} tasks per value of the header {@code header}; 0 and null: none. */
    public QueueLimits withMaxPerKey(String header, int value) {
        return new QueueLimits(perSecond, burst, maxInFlight, header, value);
    }

    public boolean rateLimited() {
        return perSecond > 0;
    }

    public boolean inFlightLimited() {
        return maxInFlight > 0;
    }

    public boolean perKeyLimited() {
        return maxPerKey > 0;
    }

    /** Whether any limit is set. */
    public boolean any() {
        return rateLimited() || inFlightLimited() || perKeyLimited();
    }
}
