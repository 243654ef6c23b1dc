package io.dbqueue.queue;

import io.dbqueue.TestDatabase;
import io.dbqueue.common.DeliveryMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An id-ordered claim starts at the floor while claims come back full, and from the head otherwise. */
class ClaimCursorTest {

    private static final Duration LEASE = Duration.ofMinutes(5);
    /** Longer than the test: only a partial or empty claim sends the next one to the head. */
    private static final Duration NO_TIMED_RESCAN = Duration.ofHours(1);

    private final DataSource ds = TestDatabase.dataSource();
    private QueueLocation queue;
    private TaskStore store;

    @BeforeEach
    void freshTable() throws SQLException {
        queue = TestDatabase.freshTable(Layout.DBQ_SEQ).queue("cursor");
        store = new TaskStore(queue, NO_TIMED_RESCAN);
        new QueueProducer(ds, queue).enqueueAll(IntStream.range(0, 30).mapToObj(i -> "task " + i).toList());
    }

    @Test
    void aTaskDueAgainBelowTheFloorIsClaimedOnceTheClaimsBelowAreNoLongerFull() throws SQLException {
        try (Connection c = ds.getConnection()) {
            List<Task> first = claim(c);
            List<Task> second = claim(c);
            store.release(c, List.of(first.get(0))); // due again, below the floor of the second batch

            List<Task> third = claim(c);
            assertEquals(second.get(9).id() + 1, third.get(0).id(), "a full claim from the floor skips it");
            assertTrue(claim(c).isEmpty(), "nothing due from the floor");
            assertEquals(List.of(first.get(0).id()), claim(c).stream().map(Task::id).toList(),
                    "the claim after an empty one starts at the head");
        }
    }

    @Test
    void floorIsJustAboveTheLastFullBatchAndResetsOnAPartialOne() {
        ClaimCursor cursor = new ClaimCursor(NO_TIMED_RESCAN);
        assertEquals(ClaimCursor.FROM_START, cursor.floor());
        cursor.claimed(ClaimCursor.FROM_START, tasks(5, 6, 7), 3);
        assertEquals(8, cursor.floor());
        cursor.claimed(8, tasks(9, 10, 11), 3);
        assertEquals(12, cursor.floor());
        cursor.claimed(12, tasks(12), 3);
        assertEquals(ClaimCursor.FROM_START, cursor.floor());
    }

    private List<Task> claim(Connection c) throws SQLException {
        return store.claim(c, 10, DeliveryMode.AT_LEAST_ONCE, LEASE);
    }

    private static List<Task> tasks(long... ids) {
        return Arrays.stream(ids).mapToObj(id -> new Task(id, "cursor", "p", Instant.EPOCH, 1, 0, 1)).toList();
    }
}
