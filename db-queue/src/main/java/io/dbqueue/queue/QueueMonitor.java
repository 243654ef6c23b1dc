package io.dbqueue.queue;

import io.dbqueue.internal.Jdbc;

import javax.sql.DataSource;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Objects;

/** Reads a queue's depth and the age of its oldest task, for metrics and health checks. */
public final class QueueMonitor {

    /** @param oldestAge age of the oldest task in the queue, zero when it is empty */
    public record Depth(long tasks, Duration oldestAge) {
    }

    private final DataSource dataSource;
    private final QueueLocation location;
    private final QueueSql sql;

    public QueueMonitor(DataSource dataSource, QueueLocation location) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.location = Objects.requireNonNull(location, "location");
        this.sql = new QueueSql(location.table());
    }

    public QueueLocation location() {
        return location;
    }

    /** Counts the queue's tasks (a full count: cheap for a drained queue, a scan for a deep one). */
    public Depth depth() {
        return Jdbc.autoCommitted(dataSource, "read depth of " + location, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.depth)) {
                ps.setString(1, location.queueName());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    double seconds = rs.getDouble(2);
                    return new Depth(rs.getLong(1), Duration.ofNanos((long) (seconds * 1e9)));
                }
            }
        });
    }
}
