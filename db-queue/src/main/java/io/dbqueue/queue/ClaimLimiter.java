package io.dbqueue.queue;

import io.dbqueue.internal.Jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * Holds one queue's consumers, in every process, to its {@link QueueLimits}. A claim first locks the queue's row
 * of the limits table, so that the claims of a limited queue take turns, and learns there how many tasks it may
 * take: no more than the tokens in the bucket (refilled at the rate, up to the burst) nor the places left under
 * the in-flight limit. It then takes the tokens and one in-flight row per claimed task, all in the claim's
 * transaction. Under a per-key limit the claim itself keeps each key under it ({@link QueueSql#keyLimitedClaim}),
 * and a task's in-flight row carries its key. A task's row goes when it is answered, or when its lease, extended
 * with the task's, expires.
 */
final class ClaimLimiter {

    private final QueueLimits limits;
    private final String queueName;
    private final LimitSql sql;
    private final long leaseMicros;
    // When the next token is due (System.nanoTime()), after a claim the rate limit cut short; 0 when none was.
    private volatile long nextTokenAt;

    ClaimLimiter(QueueLocation queue, QueueLimits limits, Duration lease) {
        this.limits = limits;
        this.queueName = queue.queueName();
        this.sql = new LimitSql(queue.table());
        this.leaseMicros = lease.toNanos() / 1000;
    }

    /** The limiter of {@code config}'s queue, or null when it has no limits. */
    static ClaimLimiter of(QueueConfig config) {
        return config.limits().any() ? new ClaimLimiter(config.location(), config.limits(), config.leaseTimeout()) : null;
    }

    /**
     * How many tasks a claim of up to {@code wanted} may take now. Locks the queue's bucket until the end of
     * {@code tx}'s transaction, in which the claim and then {@link #took} must follow.
     */
    Allowance allow(Connection tx, int wanted) throws SQLException {
        Bucket bucket = lockBucket(tx);
        if (bucket.elapsedSeconds() < 0) {
            // The server's clock went back past the bucket's time (a correction, a failover): it refills from now,
            // where it would otherwise refill nothing, and a bucket short of a token stay short, until the clock
            // caught up again.
            Jdbc.update(tx, sql.takeTokens, bucket.tokens(), bucket.now(), queueName);
        }
        int allowed = wanted;
        double tokens = 0;
        if (limits.rateLimited()) {
            tokens = Math.min(limits.burst(),
                    bucket.tokens() + Math.max(0, bucket.elapsedSeconds()) * limits.perSecond());
            allowed = (int) Math.min(allowed, Math.floor(tokens));
        }
        boolean rateBound = limits.rateLimited() && allowed < wanted;
        if (holdsPlaces() && allowed > 0) {
            int inFlight = inFlight(tx); // and forgets the places whose lease expired
            if (limits.inFlightLimited()) {
                allowed = Math.min(allowed, Math.max(0, limits.maxInFlight() - inFlight));
            }
        }
        nextTokenAt = rateBound && allowed == 0
                ? System.nanoTime() + (long) Math.ceil((1 - tokens) / limits.perSecond() * 1e9) : 0;
        return new Allowance(allowed, tokens, bucket.now());
    }

    /**
     * Records what a claim under {@code allowance} took: a token and a place in flight for each of {@code live}, the
     * tasks that start (not those of {@code claimed} it moved to the dead letters).
     */
    void took(Connection tx, Allowance allowance, List<Task> claimed, List<Task> live) throws SQLException {
        if (claimed.isEmpty()) {
            return;
        }
        if (limits.rateLimited()) {
            Jdbc.update(tx, sql.takeTokens, allowance.tokens() - live.size(), allowance.at(), queueName);
        }
        if (limits.perKeyLimited() && !live.isEmpty()) {
            Jdbc.update(tx, sql.occupyKeyed, queueName, leaseMicros, ids(tx, live), attempts(tx, live), keys(tx, live));
        } else if (limits.inFlightLimited() && !live.isEmpty()) {
            Jdbc.update(tx, sql.occupy, queueName, leaseMicros, ids(tx, live), attempts(tx, live));
        }
    }

    /** Pushes the in-flight places of {@code tasks} a lease ahead, as their leases are. */
    void extend(Connection c, List<Task> tasks) throws SQLException {
        if (holdsPlaces() && !tasks.isEmpty()) {
            Jdbc.update(c, sql.extend, leaseMicros, queueName, ids(c, tasks), attempts(c, tasks));
        }
    }

    /** Gives back the in-flight places of {@code tasks}, answered. */
    void release(Connection c, List<Task> tasks) throws SQLException {
        if (holdsPlaces() && !tasks.isEmpty()) {
            Jdbc.update(c, sql.release, queueName, ids(c, tasks), attempts(c, tasks));
        }
    }

    /** Whether the in-flight places need extending while the handler runs. */
    boolean holdsPlaces() {
        return limits.inFlightLimited() || limits.perKeyLimited();
    }

    /** Whether claims must take the per-key limit's claim ({@link TaskStore#claimKeyLimited}). */
    boolean limitsPerKey() {
        return limits.perKeyLimited();
    }

    /** How long until the next token is due, after the last claim found none; 0 when it found some. */
    long nanosUntilNextToken() {
        long at = nextTokenAt;
        return at == 0 ? 0 : Math.max(0, at - System.nanoTime());
    }

    private Bucket lockBucket(Connection tx) throws SQLException {
        Bucket bucket = readBucket(tx);
        if (bucket == null) {
            Jdbc.update(tx, sql.createBucket, queueName, (double) limits.burst());
            bucket = readBucket(tx);
        }
        return bucket;
    }

    private Bucket readBucket(Connection tx) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement(sql.lockBucket)) {
            ps.setString(1, queueName);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? new Bucket(rs.getDouble(1), rs.getDouble(2), rs.getObject(3, OffsetDateTime.class))
                        : null;
            }
        }
    }

    private int inFlight(Connection tx) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement(sql.countInFlight)) {
            ps.setString(1, queueName);
            ps.setString(2, queueName);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static Object ids(Connection c, List<Task> tasks) throws SQLException {
        return Jdbc.longs(c, tasks.stream().mapToLong(Task::id).toArray());
    }

    /** The tasks' keys, the values of the per-key limit's header; null for a task without it. */
    private Object keys(Connection c, List<Task> tasks) throws SQLException {
        return Jdbc.texts(c, tasks.stream().map(t -> t.headers().get(limits.keyHeader())).toArray(String[]::new));
    }

    private static Object attempts(Connection c, List<Task> tasks) throws SQLException {
        return Jdbc.ints(c, tasks.stream().mapToInt(Task::totalAttempt).toArray());
    }

    /** How many tasks a claim may take, and the bucket's tokens and time when it was read. */
    record Allowance(int tasks, double tokens, OffsetDateTime at) {
    }

    /** The bucket's row: its tokens when last taken from, the seconds since, and the server's clock now. */
    private record Bucket(double tokens, double elapsedSeconds, OffsetDateTime now) {
    }
}
