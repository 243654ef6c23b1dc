package io.dbqueue.maintenance;

import io.dbqueue.internal.Jdbc;
import io.dbqueue.log.Topic;
import io.dbqueue.log.TopicSegments;
import io.dbqueue.log.TopicSegments.Segment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Objects;

/**
 * Applies a {@link RetentionPolicy} to a topic by dropping whole segments, oldest first, and raising
 * the partition's low offset past them in the same transaction. No row is deleted, so retention
 * leaves no dead tuples behind. A drop waits at most 2 s for its locks ({@link TopicSegments#drop}) (readers and
 * writers of the partition queue behind a waiting DROP); one that times out is tried next round.
 */
public final class LogRetention {

    private static final Logger LOG = LoggerFactory.getLogger(LogRetention.class);
    private static final String LOCK_NOT_AVAILABLE = "55P03";

    private final DataSource dataSource;
    private final Topic topic;
    private final TopicSegments segments;
    private final RetentionPolicy policy;

    private LogRetention(DataSource dataSource, TopicSegments segments, RetentionPolicy policy) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.topic = segments.topic();
        this.segments = segments;
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    public static LogRetention of(DataSource dataSource, String topicName, RetentionPolicy policy) {
        return new LogRetention(dataSource, TopicSegments.of(dataSource, topicName), policy);
    }

    /** {@link #apply}, a failure logged: for a schedule, whose next round tries again. */
    void applyQuietly() {
        try {
            apply();
        } catch (RuntimeException e) {
            LOG.warn("{}: retention failed, trying again next round: {}", topic.name(), e.getMessage());
        }
    }

    /** Drops what the policy allows now; returns how many segments it dropped. */
    public int apply() {
        return Jdbc.autoCommitted(dataSource, "retention on " + topic.name(), c -> {
            int dropped = 0;
            for (int p = 0; p < topic.partitions(); p++) {
                dropped += apply(c, p);
            }
            return dropped;
        });
    }

    private int apply(Connection c, int partition) throws SQLException {
        long next = segments.nextOffset(c, partition);
        Long minCommitted = segments.minCommitted(c, partition);
        List<Segment> all = segments.segments(c, partition);
        long bytes = all.stream().mapToLong(Segment::bytes).sum();
        int dropped = 0;
        for (Segment segment : all) {
            long end = segments.end(segment);
            Reason reason = end > next ? Reason.KEEP : reason(c, partition, end, minCommitted, bytes);
            if (reason == Reason.KEEP || !drop(c, partition, segment, reason == Reason.CONSUMED)) {
                break;
            }
            LOG.info("{}: retention dropped partition {} offsets below {} ({} bytes)", topic.name(), partition, end,
                    segment.bytes());
            bytes -= segment.bytes();
            dropped++;
        }
        return dropped;
    }

    /** Why a segment may go: its size or age (whoever has read it), or every group having read it. */
    private enum Reason { KEEP, CONSUMED, LIMIT }

    private Reason reason(Connection c, int partition, long end, Long minCommitted, long bytes) throws SQLException {
        if (policy.maxBytes() > 0 && bytes > policy.maxBytes()) {
            return Reason.LIMIT;
        }
        if (policy.maxAge() != null) {
            Optional<Instant> newest = segments.appendedAt(c, partition, end - 1);
            if (newest.isEmpty() || policy.expired(newest.get(), Instant.now())) {
                return Reason.LIMIT;
            }
        }
        return policy.dropConsumed() && minCommitted != null && minCommitted >= end ? Reason.CONSUMED : Reason.KEEP;
    }

    /** {@link TopicSegments#drop}; false when its locks were not to be had in time, for the next round. */
    private boolean drop(Connection c, int partition, Segment segment, boolean onlyIfConsumed) throws SQLException {
        try {
            return segments.drop(c, partition, segment, onlyIfConsumed);
        } catch (SQLException e) {
            if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                LOG.debug("{}: retention could not lock partition {} in time, next round", topic.name(), partition);
                return false;
            }
            throw e;
        }
    }
}
