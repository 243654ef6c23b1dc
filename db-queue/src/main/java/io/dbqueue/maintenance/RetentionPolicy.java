package io.dbqueue.maintenance;

import io.dbqueue.common.InvalidValueException;
import java.time.Duration;
import java.time.Instant;

/**
 * When retention drops a partition's oldest segment (whole, never row by row; only a segment whose
 * offsets have all been appended). Any condition that holds is enough:
 *
 * @param maxAge               its newest record is older than this (null: no limit by time)
 * @param maxBytes             the partition's segments take more than this many bytes (0: no limit by size)
 * @param dropConsumed         every group that reads the topic has committed past it (and there is one)
 */
public record RetentionPolicy(Duration maxAge, long maxBytes, boolean dropConsumed) {

    public RetentionPolicy {
        if (maxAge != null && (maxAge.isNegative() || maxAge.isZero())) {
            throw new InvalidValueException("maxAge", "must be positive or null", maxAge);
        }
        if (maxBytes < 0) {
            throw new InvalidValueException("maxBytes", "must be zero (no limit) or positive", maxBytes);
        }
    }

    public static RetentionPolicy consumed() {
        return new RetentionPolicy(null, 0, true);
    }

    boolean expired(Instant newest, Instant now) {
        return maxAge != null && newest.isBefore(now.minus(maxAge));
    }
}
