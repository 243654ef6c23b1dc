package io.dbqueue.queue;

import io.dbqueue.TestDatabase;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.queue.ClaimCursor.Floor;
import io.dbqueue.queue.ClaimCursor.Range;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A claim in sequence order starts at the floor while claims come back full, and from the head otherwise. */
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
        assertEquals(Floor.FROM_START, cursor.floor());
        cursor.claimed(Floor.FROM_START, tasks(5, 6, 7), 3);
        assertEquals(8, cursor.floor().id(0));
        cursor.claimed(cursor.floor(), tasks(9, 10, 11), 3);
        assertEquals(12, cursor.floor().id(0));
        cursor.claimed(cursor.floor(), tasks(12), 3);
        assertEquals(Floor.FROM_START, cursor.floor());
    }

    @Test
    void byPriorityALevelReadToItsEndGetsTheBatchsHighestIdAndTheLastLevelItsLastTask() {
        Floor floor = Floor.FROM_START.after(List.of(task(40, 3), task(41, 3), task(7, 1)));
        assertEquals(List.of(3, 1), List.copyOf(floor.ids().keySet()));
        assertEquals(42, floor.id(3), "level 3 was read to its end");
        assertEquals(8, floor.id(1), "level 1 from just after the batch's last task");
        assertEquals(Long.MIN_VALUE, floor.id(0), "level 0 was not reached: from its head");

        Floor next = floor.after(List.of(task(50, 2), task(9, 1)));
        assertEquals(List.of(3, 2, 1), List.copyOf(next.ids().keySet()));
        assertEquals(51, next.id(3), "read to its end again, up to the new batch's highest id");
        assertEquals(51, next.id(2));
        assertEquals(10, next.id(1));
    }

    @Test
    void aFloorNeverMovesBackAndKeepsItsHighestLevels() {
        Floor floor = Floor.FROM_START.after(List.of(task(90, 2), task(3, 0)));
        Floor older = floor.after(List.of(task(2, 0))); // a slower thread's older batch
        assertEquals(4, older.id(0), "in one level, the higher id");
        assertEquals(91, older.id(2));

        List<Task> everyLevel = IntStream.range(0, ClaimCursor.MAX_LEVELS + 2)
                .mapToObj(level -> task(100 - level, 20 - level)).toList();
        Floor many = Floor.FROM_START.after(everyLevel);
        assertEquals(ClaimCursor.MAX_LEVELS, many.ids().size());
        assertEquals(20, many.ids().firstKey(), "the highest levels keep their floors");
    }

    @Test
    void aClaimByPriorityReadsItsFloorsLevelsFromTheirFloorsAndOnlyTheRangesAroundThemThatCanHoldAPriority() {
        int max = QueueProducer.MAX_PRIORITY;
        int min = QueueProducer.MIN_PRIORITY;
        long head = Long.MIN_VALUE;
        assertEquals(List.of(new Range(min, max, head)), Floor.FROM_START.ranges(), "every priority from its head");
        assertEquals(List.of(new Range(4, max, head), new Range(3, 3, 41), new Range(2, 2, head), new Range(1, 1, 8),
                        new Range(min, 0, head)),
                Floor.FROM_START.after(List.of(task(40, 3), task(7, 1))).ranges(), "above 3, between 3 and 1, below 1");
        assertEquals(List.of(new Range(4, max, head), new Range(3, 3, 41), new Range(2, 2, 41), new Range(1, 1, 8),
                        new Range(min, 0, head)),
                Floor.FROM_START.after(List.of(task(40, 3), task(30, 2), task(7, 1))).ranges(),
                "nothing between 3 and 2, or between 2 and 1");
        assertEquals(List.of(new Range(max, max, 41), new Range(min + 1, max - 1, head), new Range(min, min, 8)),
                Floor.FROM_START.after(List.of(task(40, max), task(7, min))).ranges(),
                "nothing above the highest or below the lowest");
    }

    /**
     * By priority, a claim from the floors passes over the lower ids of the levels that have one, but still
     * takes a task enqueued into a higher level after they were set, and reads the levels without one from their
     * heads.
     */
    @ParameterizedTest
    @MethodSource("io.dbqueue.queue.QueueStatementsTest#priorityLayouts")
    void byPriorityAClaimFromTheFloorsTakesANewHigherPriorityFirstAndOtherLevelsFromTheirHeads(Layout layout)
            throws SQLException {
        QueueLocation prioritized = TestDatabase.freshTable(layout).queue("cursor");
        TaskStore byPriority = new TaskStore(prioritized, NO_TIMED_RESCAN);
        QueueProducer producer = new QueueProducer(ds, prioritized);
        List<Long> low = producer.enqueueAll(List.of("low 1", "low 2"), Duration.ZERO, 0);
        List<Long> mid = producer.enqueueAll(IntStream.range(0, 10).mapToObj(i -> "mid " + i).toList(), Duration.ZERO, 2);
        try (Connection c = ds.getConnection()) {
            List<Task> first = byPriority.claim(c, 4, DeliveryMode.AT_LEAST_ONCE, LEASE);
            assertEquals(mid.subList(0, 4), ids(first));
            byPriority.release(c, List.of(first.get(0))); // due again, below level 2's floor
            long high = producer.enqueue("high", 3);
            long between = producer.enqueue("between", 1);

            List<Task> second = byPriority.claim(c, 4, DeliveryMode.AT_LEAST_ONCE, LEASE);
            assertEquals(List.of(high, mid.get(4), mid.get(5), mid.get(6)), ids(second),
                    "the new higher level first, then level 2 from its floor");
            List<Task> third = byPriority.claim(c, 4, DeliveryMode.AT_LEAST_ONCE, LEASE);
            assertEquals(List.of(mid.get(7), mid.get(8), mid.get(9), between), ids(third),
                    "past the floor's level, a level without a floor from its head");
            List<Task> fourth = byPriority.claim(c, 4, DeliveryMode.AT_LEAST_ONCE, LEASE);
            assertEquals(List.of(low.get(0), low.get(1)), ids(fourth), "and the lowest level from its head");
            assertEquals(List.of(mid.get(0)), ids(byPriority.claim(c, 4, DeliveryMode.AT_LEAST_ONCE, LEASE)),
                    "after a partial claim, from the start: the task below the floor");
        }
    }

    static Stream<Arguments> priorityLayoutsAndModes() {
        return QueueStatementsTest.priorityLayouts().flatMap(layout -> Stream.of(DeliveryMode.AT_LEAST_ONCE,
                DeliveryMode.AT_MOST_ONCE).map(mode -> Arguments.of(layout, mode)));
    }

    /**
     * Floors at the highest and the lowest priority a task can have: a claim from them reads those levels from their
     * floors and every priority between them from its head, and no range outside the priorities a task can have.
     */
    @ParameterizedTest
    @MethodSource("priorityLayoutsAndModes")
    void byPriorityClaimsFromFloorsAtTheHighestAndTheLowestPriorityReadEveryPriorityBetween(Layout layout,
                                                                                         DeliveryMode mode)
            throws SQLException {
        QueueLocation prioritized = TestDatabase.freshTable(layout).queue("cursor");
        TaskStore byPriority = new TaskStore(prioritized, NO_TIMED_RESCAN);
        QueueProducer producer = new QueueProducer(ds, prioritized);
        List<Long> top = producer.enqueueAll(List.of("top 1", "top 2", "top 3"), Duration.ZERO,
                QueueProducer.MAX_PRIORITY);
        List<Long> bottom = producer.enqueueAll(List.of("bottom 1", "bottom 2", "bottom 3"), Duration.ZERO,
                QueueProducer.MIN_PRIORITY);
        try (Connection c = ds.getConnection()) {
            assertEquals(top.subList(0, 2), ids(byPriority.claim(c, 2, mode, LEASE)));
            assertEquals(List.of(top.get(2), bottom.get(0)), ids(byPriority.claim(c, 2, mode, LEASE)),
                    "the highest level from its floor, then the lowest from its head");
            long newTop = producer.enqueue("new top", QueueProducer.MAX_PRIORITY);
            long middle = producer.enqueue("middle", 0);
            assertEquals(List.of(newTop, middle), ids(byPriority.claim(c, 2, mode, LEASE)),
                    "floors at both ends: the highest from its floor, then the priorities between from their heads");
            assertEquals(bottom.subList(1, 3), ids(byPriority.claim(c, 2, mode, LEASE)), "the lowest from its floor");
            assertTrue(byPriority.claim(c, 2, mode, LEASE).isEmpty());
        }
    }

    private static List<Long> ids(List<Task> tasks) {
        return tasks.stream().map(Task::id).toList();
    }

    private static Task task(long id, int priority) {
        return new Task(id, "cursor", "p", Instant.EPOCH, 1, 0, 1, priority);
    }

    private List<Task> claim(Connection c) throws SQLException {
        return store.claim(c, 10, DeliveryMode.AT_LEAST_ONCE, LEASE);
    }

    private static List<Task> tasks(long... ids) {
        return Arrays.stream(ids).mapToObj(id -> task(id, 0)).toList();
    }
}
