package io.dbqueue.log;

import io.dbqueue.common.DeliveryMode;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whether a read's records are the ones after the position it read ({@link GroupStore.Read#followsPosition}), and stay as read. */
class GroupReadTest {

    private static List<LogRecord> records(long from, long to) {
        return LongStream.range(from, to).mapToObj(o -> new LogRecord("t", 0, o, null, "p" + o, Instant.EPOCH)).toList();
    }

    /**
     * The handler's batch and the read hold the records as read: a handler that sorted the list it was handed (by key,
     * or newest first) moved the commit to its last element's offset + 1, and the rest of the batch came again.
     */
    @Test
    void whatTheHandlerIsHandedCannotMoveTheCommit() {
        List<LogRecord> read = new ArrayList<>(records(100, 110));
        GroupStore.Read kept = new GroupStore.Read(100, 0, 110, read);
        RecordBatch batch = new RecordBatch("t", "g", 0, kept.records(), DeliveryMode.AT_LEAST_ONCE, null);
        assertThrows(UnsupportedOperationException.class,
                () -> batch.records().sort(Comparator.comparingLong(LogRecord::offset).reversed()));
        assertThrows(UnsupportedOperationException.class, () -> batch.records().removeIf(r -> true));
        read.clear();
        assertEquals(110, kept.end());
        assertEquals(110, batch.nextOffset());
    }

    @Test
    void recordsFromThePositionOnFollowIt() {
        assertTrue(new GroupStore.Read(100, 0, 300, records(100, 300)).followsPosition());
        assertTrue(new GroupStore.Read(100, 0, 100, List.of()).followsPosition(), "nothing after the position");
    }

    @Test
    void afterRetentionDroppedUnreadRecordsTheyFollowFromThePartitionsLowest() {
        assertTrue(new GroupStore.Read(50, 80, 300, records(80, 250)).followsPosition());
    }

    /** A reset to 50 committed while the locking read waited: the position it returns is 50, its records from 100. */
    @Test
    void recordsAfterAnOlderPositionDoNotFollowTheNewOne() {
        assertFalse(new GroupStore.Read(50, 0, 300, records(100, 250)).followsPosition());
    }

    @Test
    void aGapDoesNotFollow() {
        List<LogRecord> gap = new ArrayList<>(records(100, 110));
        gap.addAll(records(111, 120));
        assertFalse(new GroupStore.Read(100, 0, 300, gap).followsPosition());
    }
}
