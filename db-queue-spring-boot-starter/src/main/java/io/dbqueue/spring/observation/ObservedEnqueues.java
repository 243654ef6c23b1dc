package io.dbqueue.spring.observation;

import io.dbqueue.queue.EnqueueInterceptor;
import io.dbqueue.queue.QueueLocation;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import java.sql.SQLException;
import java.util.Map;

/** A {@code dbq.enqueue} observation around every enqueue call, its trace context put into the tasks' headers. */
final class ObservedEnqueues implements EnqueueInterceptor {

    static final String NAME = "dbq.enqueue";

    private final ObservationRegistry registry;
    private final QueueNames names;

    ObservedEnqueues(ObservationRegistry registry, QueueNames names) {
        this.registry = registry;
        this.names = names;
    }

    @Override
    public <T> T around(QueueLocation queue, int tasks, Map<String, String> headers, Enqueue<T> enqueue)
            throws SQLException {
        String id = names.id(queue);
        return Observation.createNotStarted(NAME, () -> new EnqueueContext(queue, tasks, headers), registry)
                .contextualName(id + " send")
                .lowCardinalityKeyValue("dbq.queue", id)
                .lowCardinalityKeyValue("dbq.table", queue.table().name())
                .highCardinalityKeyValue("dbq.queue.name", queue.queueName())
                .observeChecked(enqueue::proceed);
    }
}
