package io.dbqueue.maintenance;

import io.dbqueue.DbQueue;
import io.dbqueue.TestDatabase;
import io.dbqueue.queue.FoundTask;
import io.dbqueue.queue.HistoryTable;
import io.dbqueue.queue.HistoryTable.Partition;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueAdmin;
import io.dbqueue.queue.QueueTable;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Partitions of a history are created ahead and dropped whole once older than the retention, at a given clock. */
class HistoryRetentionTest {

    private static final Duration HOUR = Duration.ofHours(1);

    private final DataSource ds = TestDatabase.dataSource();

    @Test
    void partitionsAreCreatedAheadAndDroppedWholeOnceOlderThanTheRetention() throws Exception {
        QueueTable table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        HistoryRetention retention = new HistoryRetention(ds);
        retention.keep(table, HOUR);
        List<Partition> created = partitions(table);
        Instant now = now();
        assertEquals(HistoryTable.AHEAD + 1, created.size(), created.toString());
        assertFalse(created.get(0).from().isAfter(now), "the first partition holds now");
        assertTrue(created.get(0).to().isAfter(now));
        for (int i = 1; i < created.size(); i++) {
            assertEquals(created.get(i - 1).to(), created.get(i).from(), "contiguous");
            assertEquals(HOUR, Duration.between(created.get(i).from(), created.get(i).to()));
        }
        long id;
        try (DbQueue dbq = DbQueue.builder(ds).build()) {
            id = dbq.producer(table.queue("q")).enqueue("kept");
            TestDatabase.execute("WITH moved AS (DELETE FROM " + table.name() + " RETURNING *) INSERT INTO "
                    + table.historyTable() + " (id, queue_name, payload, created_at, attempt, reenqueue_attempt,"
                    + " total_attempt) SELECT id, queue_name, payload, created_at, 1, 0, 1 FROM moved");
            QueueAdmin admin = dbq.queueAdmin(table.queue("q"));
            assertEquals(FoundTask.State.DONE, admin.find(id).orElseThrow().state());

            assertEquals(List.of(), retention.apply(now), "nothing is older than the retention yet");
            Instant later = now.plus(Duration.ofHours(3));
            List<String> dropped = retention.apply(later);

            List<String> expected = created.stream().filter(p -> !p.to().isAfter(later.minus(HOUR)))
                    .map(Partition::name).toList();
            assertEquals(expected, dropped);
            assertEquals(2, dropped.size(), "the hour of now and the next one");
            List<Partition> left = partitions(table);
            assertTrue(left.stream().noneMatch(p -> dropped.contains(p.name())), "dropped from pg_inherits: " + left);
            assertTrue(admin.find(id).isEmpty(), "gone with its partition");
            assertTrue(left.get(left.size() - 1).to().isAfter(later.plus(HOUR.multipliedBy(HistoryTable.AHEAD))),
                    "created ahead of the later clock: " + left);
        }
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + table.historyTable()));
    }

    @Test
    void aTableKeepsTheLongestHistoryOfItsQueuesInDailyPartitionsBeyondTwoDays() throws Exception {
        QueueTable table = TestDatabase.freshTable(Layout.DBQ_SEQ);
        HistoryRetention retention = new HistoryRetention(ds);
        retention.keep(table, HOUR);
        retention.keep(table, Duration.ofDays(7));
        retention.keep(table, HOUR);
        Instant now = now();

        assertEquals(List.of(), retention.apply(now.plus(Duration.ofDays(2))), "kept for the longest retention");
        List<Partition> partitions = partitions(table);
        Partition newest = partitions.get(partitions.size() - 1);
        assertEquals(Duration.ofDays(1), Duration.between(newest.from(), newest.to()), "daily for a week");
        assertEquals(Duration.ofHours(1), HistoryTable.partitionWidth(Duration.ofDays(2)));
        assertEquals(Duration.ofDays(1), HistoryTable.partitionWidth(Duration.ofDays(2).plusSeconds(1)));
    }

    private List<Partition> partitions(QueueTable table) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return HistoryTable.partitions(c, table);
        }
    }

    private Instant now() throws SQLException {
        try (Connection c = ds.getConnection()) {
            return HistoryTable.now(c);
        }
    }
}
