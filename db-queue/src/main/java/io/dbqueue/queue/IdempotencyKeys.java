package io.dbqueue.queue;

import io.dbqueue.common.Checks;
import io.dbqueue.internal.Jdbc;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.Objects;

/**
 * The idempotency keys of a queue table ({@link QueueTable#keysTable()}). A key answers repeats with
 * its task's id for as long as it is kept (and its {@link Uniqueness} holds); {@link #purge} removes the
 * keys older than the retention, which is how long a client may take to retry ({@code DbQueue} runs it
 * on a schedule), once their task has left the queue: a key is never purged from under a waiting or
 * running task, so that it stays unique however long it waits.
 * A key may be stored with a request fingerprint ({@code request_hash}), so that the key reused for
 * another request is told from a repeat ({@link IdempotencyKeyReusedException}).
 */
public final class IdempotencyKeys {

    /** Keys deleted per statement, so a purge never holds many row locks or one long transaction. */
    static final int PURGE_CHUNK = 10_000;
    public static final int MAX_KEY_LENGTH = 512;

    private IdempotencyKeys() {
    }

    /**
     * Deletes the keys of every queue in {@code table} older than {@code retention} whose task is no longer in
     * the queue; returns how many.
     */
    public static long purge(DataSource dataSource, QueueTable table, Duration retention) {
        Objects.requireNonNull(table, "table");
        Checks.notNegative("retention", retention);
        String statement = new QueueSql(table).purgeKeys;
        long micros = retention.toNanos() / 1000;
        long deleted = 0;
        int chunk;
        do {
            chunk = Jdbc.autoCommitted(dataSource, "purging idempotency keys of " + table.name(),
                    c -> Jdbc.update(c, statement, micros));
            deleted += chunk;
        } while (chunk == PURGE_CHUNK);
        return deleted;
    }

    /** {@code fingerprint}, checked as a key is, or null (none). */
    static String checkedFingerprint(String fingerprint, String field) {
        return fingerprint == null ? null : checked(fingerprint, field);
    }

    /** Whether two fingerprints tell two different requests apart: both known and unequal. */
    static boolean differ(String stored, String sent) {
        return stored != null && sent != null && !stored.equals(sent);
    }

    /** {@code key}, checked: 1 to {@value #MAX_KEY_LENGTH} characters that PostgreSQL stores as given. */
    static String checked(String key, String field) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException(field + " must not be null or empty");
        }
        if (key.length() > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException(field + " is " + key.length() + " characters long; at most "
                    + MAX_KEY_LENGTH + " are allowed");
        }
        String unstorable = Checks.unstorable(key);
        if (unstorable != null) {
            throw new IllegalArgumentException(field + " " + unstorable);
        }
        return key;
    }
}
