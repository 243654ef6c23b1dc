package io.dbqueue.log;

import io.dbqueue.internal.DaemonThreads;
import io.dbqueue.internal.Jdbc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Keeps a topic's segments created ahead of a producer's appends, so that an append finds its
 * segment in place; above all one in the caller's transaction, which a missing segment aborts. Once
 * a partition's appends come within half a segment of the last segment known to exist, the next two
 * are created on a background thread and a connection of its own: never inside an appending
 * transaction, whose lock on the partition's table the DDL would have to wait for.
 */
final class SegmentsAhead implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentsAhead.class);
    private static final long IDLE_SECONDS = 10;

    private final DataSource dataSource;
    private final Topic topic;
    private final LogSql sql;
    private final AtomicLongArray knownEnd; // per partition: segments exist below this offset, as far as known here
    private final Set<Integer> creating = ConcurrentHashMap.newKeySet();
    private final ExecutorService creator;

    SegmentsAhead(DataSource dataSource, Topic topic, LogSql sql) {
        this.dataSource = dataSource;
        this.topic = topic;
        this.sql = sql;
        this.knownEnd = new AtomicLongArray(topic.partitions());
        // one thread at most, and none while idle: a producer that is never closed leaves no thread behind
        this.creator = new ThreadPoolExecutor(0, 1, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                DaemonThreads.named("dbq-segments-" + topic.name()));
    }

    /** After an append to {@code partition} that ended before offset {@code end}: creates segments if they run short. */
    void appended(int partition, long end) {
        if (end + topic.segmentSize() / 2 > knownEnd.get(partition) && creating.add(partition)) {
            try {
                submit(partition);
            } catch (RejectedExecutionException closed) { // the producer is closing: the append itself stands
                creating.remove(partition);
            }
        }
    }

    private void submit(int partition) {
        creator.execute(() -> {
            try {
                create(partition, 0);
            } catch (RuntimeException e) {
                LOG.warn("{}: creating segments of partition {} ahead of its appends failed (the next append tries"
                        + " again): {}", topic.name(), partition, e.getMessage());
            } finally {
                creating.remove(partition);
            }
        });
    }

    /**
     * Creates, now, the segments of the partition's next {@code count} offsets (at least a segment's
     * worth) and of the segment after them.
     */
    void create(int partition, long count) {
        long end = Jdbc.autoCommitted(dataSource, "create segments of " + topic.name() + " partition " + partition, c -> {
            long ahead = PartitionBounds.read(c, sql, partition).next() + Math.max(count, topic.segmentSize());
            return LogSchema.ensureSegments(c, topic, partition, ahead);
        });
        knownEnd.accumulateAndGet(partition, end, Math::max);
    }

    @Override
    public void close() {
        creator.shutdownNow();
    }
}
