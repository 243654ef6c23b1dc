package io.dbqueue.queue;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

class QueueListenerTest {

    @Test
    void compositeCallsEveryListenerEvenWhenOneThrows() {
        List<String> calls = new CopyOnWriteArrayList<>();
        QueueListener throwing = new QueueListener() {
            @Override
            public void finished(QueueLocation queue, List<Task> tasks) {
                calls.add("first");
                throw new IllegalStateException("metrics backend down");
            }
        };
        QueueListener recording = new QueueListener() {
            @Override
            public void finished(QueueLocation queue, List<Task> tasks) {
                calls.add("second:" + tasks.size());
            }
        };
        QueueLocation queue = QueueLocation.of(Layout.DBQ_SEQ, "q");
        Task task = new Task(1, "q", "p", Instant.now(), 1, 0, 1);
        QueueListener.composite(List.of(throwing, recording)).finished(queue, List.of(task));
        assertEquals(List.of("first", "second:1"), calls);
    }
}
