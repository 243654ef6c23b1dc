package io.dbqueue.spring;

import io.dbqueue.queue.Layout;

import java.util.Locale;

/** {@code dbq.queues.<id>.layout}: the core's layout presets ({@link Layout#presets()}), by name. */
public enum QueueLayout {

    QUEUE_TASKS_1, QUEUE_TASKS_2, QUEUE_TASKS_3, QUEUE_TASKS_4, QUEUE_TASKS_5, QUEUE_TASKS_6,
    DBQ_SEQ, DBQ_SEQ_COVERING, DBQ_SEQ_EAGER_VACUUM, DBQ_SEQ_PK, DBQ_SEQ_PRIORITY,
    DBQ_SEQ_PRIORITY_KEY;

    public Layout layout() {
        return Layout.named(name().toLowerCase(Locale.ROOT));
    }
}
