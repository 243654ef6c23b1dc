package io.dbqueue.queue;

import io.dbqueue.common.InvalidValueException;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Per-minute counts of a queue's work, read over the last minutes, on a test clock. */
class QueueActivityTest {

    private static final QueueLocation QUEUE = QueueLocation.of(Layout.DBQ_SEQ, "q");
    private static final Task TASK = new Task(1, "q", "p", Instant.EPOCH, 1, 0, 1);

    private Instant now = Instant.parse("2026-01-01T00:00:30Z");
    private final QueueActivity activity = new QueueActivity(new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    });

    @Test
    void countsPerMinuteOverTheLastMinutesOnly() {
        activity.finished(QUEUE, List.of(TASK, TASK));
        activity.failed(QUEUE, TASK, "no", false);
        now = now.plus(Duration.ofMinutes(2));
        activity.finished(QUEUE, List.of(TASK));
        activity.failed(QUEUE, TASK, "no", true);

        assertEquals(new QueueActivity.Recent(1, 1, 1, 1), activity.recent(QUEUE, 1));
        assertEquals(new QueueActivity.Recent(3, 3, 2, 1), activity.recent(QUEUE, 3));
        now = now.plus(Duration.ofMinutes(QueueActivity.MINUTES));
        assertEquals(new QueueActivity.Recent(15, 0, 0, 0), activity.recent(QUEUE, 15), "the ring's buckets expired");
        activity.finished(QUEUE, List.of(TASK));
        assertEquals(new QueueActivity.Recent(15, 1, 0, 0), activity.recent(QUEUE, 15), "a reused bucket starts at 0");
        assertEquals(new QueueActivity.Recent(5, 0, 0, 0),
                activity.recent(QueueLocation.of(Layout.DBQ_SEQ, "idle"), 5));
    }

    @Test
    void minutesOutsideTheRingAreRefused() {
        assertThrows(InvalidValueException.class, () -> activity.recent(QUEUE, 0));
        assertThrows(InvalidValueException.class, () -> activity.recent(QUEUE, QueueActivity.MINUTES + 1));
    }
}
