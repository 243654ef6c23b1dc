package io.dbqueue.spring.actuate;

import io.dbqueue.log.GroupLag;
import io.dbqueue.queue.DeadLetters;
import io.dbqueue.queue.QueueActivity;
import io.dbqueue.queue.QueueAdmin;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueMonitor;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.spring.DbQueues;
import io.dbqueue.spring.actuate.DbQueueReport.DeadLetter;
import io.dbqueue.spring.actuate.DbQueueReport.DeadLetterPage;
import io.dbqueue.spring.actuate.DbQueueReport.Group;
import io.dbqueue.spring.actuate.DbQueueReport.PartitionLag;
import io.dbqueue.spring.actuate.DbQueueReport.Queue;
import io.dbqueue.spring.actuate.DbQueueReport.Recent;
import io.dbqueue.spring.actuate.DbQueueReport.TaskLookup;
import io.dbqueue.spring.actuate.DbQueueReport.Topic;
import io.dbqueue.spring.actuate.DbQueueReport.Workers;
import io.dbqueue.spring.actuate.DbQueueReport.WriteResult;
import io.dbqueue.spring.log.DbQueueTopics;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The Actuator endpoint {@code dbqueue}: {@code GET /actuator/dbqueue} reads every queue and topic
 * ({@link DbQueueReport}), {@code GET /actuator/dbqueue/{queue}} one queue (404 when no such queue is configured),
 * {@code GET /actuator/dbqueue/{queue}/dead-letters} and {@code GET /actuator/dbqueue/{queue}/task?id=} (or
 * {@code ?key=}) a page of its dead letters and one task, and {@code POST /actuator/dbqueue/{queue}/{action}} changes
 * a queue, only with {@code dbq.endpoint.write-enabled} (else {@link WritesDisabledException}: 403 over HTTP, see
 * {@link DbQueueWebEndpointExtension}). Actions and their JSON body: {@code pause} and {@code resume} (every instance,
 * within a second); {@code requeue} and {@code delete} of dead letters, {@code {"ids": "41,42"}} or {@code {"all": true}};
 * {@code cancel} of a waiting task, {@code {"id": n}} or {@code {"key": "..."}}; {@code reschedule},
 * {@code {"id": n, "dueAt": "2026-01-01T00:00:00Z"}}. Bad input is answered 400, naming the field. (Actuator reads a
 * body's values as strings, so ids are one comma-separated string, not a JSON array.)
 */
@Endpoint(id = "dbqueue")
public class DbQueueEndpoint {

    /** The endpoint's id, as Actuator maps it to a path. */
    public static final EndpointId ID = EndpointId.of("dbqueue");

    /** Dead letters per page, at most. */
    static final int PAGE = 100;
    /** Characters of a payload shown. */
    static final int PREVIEW = 500;

    private static final List<String> ACTIONS = List.of("pause", "resume", "requeue", "delete", "cancel", "reschedule");

    private final DbQueues queues;
    private final DbQueueTopics topics; // null without dbq.log
    private final QueueActivity activity;
    private final DbQueueEndpointProperties properties;
    private final String instance = ManagementFactory.getRuntimeMXBean().getName();

    public DbQueueEndpoint(DbQueues queues, @Nullable DbQueueTopics topics, QueueActivity activity,
                           DbQueueEndpointProperties properties) {
        this.queues = queues;
        this.topics = topics;
        this.activity = activity;
        this.properties = properties;
    }

    @ReadOperation
    public DbQueueReport report() {
        Map<String, Queue> byId = new LinkedHashMap<>();
        queues.ids().forEach(queue -> byId.put(queue, queue(queue)));
        Map<String, Topic> byName = new LinkedHashMap<>();
        if (topics != null) {
            topics.topics().forEach(name -> byName.put(name, topic(name)));
        }
        return new DbQueueReport(instance, properties.writeEnabled(), byId, byName);
    }

    /** One queue; null (404) when {@code queue} is not a configured queue's id. */
    @ReadOperation
    public @Nullable Queue queue(@Selector String queue) {
        if (!queues.ids().contains(queue)) {
            return null;
        }
        QueueLocation location = queues.location(queue);
        Workers workers = queues.workers(queue).map(DbQueueEndpoint::workers).orElse(null);
        QueueActivity.Recent r = activity.recent(location, properties.recentMinutes());
        Recent recent = new Recent(r.minutes(), r.finished(), r.failed(), r.deadLettered());
        try {
            QueueMonitor.Stats s = queues.admin(queue).stats();
            return new Queue(location.toString(), s.waiting(), s.oldestWaitingAge().toMillis() / 1000.0, s.leased(),
                    s.scheduled(), s.deadLetters(), s.paused(), workers, recent, null);
        } catch (RuntimeException e) {
            return new Queue(location.toString(), null, null, null, null, null, null, workers, recent, e.getMessage());
        }
    }

    /**
     * {@code dead-letters}: a page of the queue's dead letters after id {@code after} (default 0), up to {@code limit}
     * (default and at most {@value #PAGE}); {@code task}: the task with {@code id}, or enqueued with {@code key}.
     * Null (404) for an unknown queue, or a key the queue does not know.
     */
    @ReadOperation
    public @Nullable Object view(@Selector String queue, @Selector String view, @Nullable Long id,
                                 @Nullable String key, @Nullable Long after, @Nullable Integer limit) {
        if (!queues.ids().contains(queue)) {
            return null;
        }
        QueueAdmin admin = queues.admin(queue);
        try {
            return switch (view) {
                case "dead-letters" -> deadLetters(admin.deadLetters(), after == null ? 0 : after,
                        limit == null ? PAGE : Math.min(limit, PAGE));
                case "task" -> lookup(admin, id, key);
                default -> throw refused("unknown view '" + view + "'; views: [dead-letters, task]");
            };
        } catch (IllegalArgumentException e) { // the core's refusal of a value, e.g. a key with a NUL, as change's
            throw refused(e.getMessage());
        }
    }

    private static DeadLetterPage deadLetters(DeadLetters dead, long after, int limit) {
        if (limit < 1) {
            throw refused("limit must be at least 1, was " + limit);
        }
        List<DeadLetter> page = dead.list(after, limit).stream().map(t -> new DeadLetter(t.id(), preview(t.payload()),
                t.payload() == null ? 0 : t.payload().length(), t.createdAt(), t.failedAt(), t.attempt(),
                t.totalAttempt(), t.lastError())).toList();
        return new DeadLetterPage(page, page.size() < limit ? null : page.get(page.size() - 1).id());
    }

    /** Why a read of {@code queue} found nothing: {@code what}, or that there is no such queue. */
    String notFound(String queue, String what) {
        return queues.ids().contains(queue) ? what : unknownQueue(queue);
    }

    private String unknownQueue(String queue) {
        return "unknown queue id '" + queue + "'; configured under dbq.queues: " + queues.ids();
    }

    private static @Nullable TaskLookup lookup(QueueAdmin admin, @Nullable Long taskId, @Nullable String key) {
        if ((taskId == null) == (key == null)) {
            throw refused("give either id (a task's id) or key (the idempotency key it was enqueued with)");
        }
        OptionalLong id = taskId != null ? OptionalLong.of(taskId) : admin.taskIdOfKey(key);
        if (id.isEmpty()) {
            return null;
        }
        return admin.find(id.getAsLong()).map(t -> new TaskLookup(t.id(), t.state().name(), preview(t.payload()),
                        t.createdAt(), t.since(), t.attempt(), t.lastError()))
                .orElse(new TaskLookup(id.getAsLong(), "GONE", null, null, null, null, null));
    }

    private static @Nullable String preview(@Nullable String payload) {
        return payload == null || payload.length() <= PREVIEW ? payload : payload.substring(0, PREVIEW);
    }

    @WriteOperation
    public WriteResult change(@Selector String queue, @Selector String action, @Nullable String ids,
                              @Nullable Boolean all, @Nullable Long id, @Nullable String key,
                              @Nullable String dueAt) {
        if (!properties.writeEnabled()) {
            throw new WritesDisabledException("dbqueue");
        }
        if (!queues.ids().contains(queue)) {
            throw refused(unknownQueue(queue));
        }
        QueueAdmin admin = queues.admin(queue);
        try {
            long affected = switch (action) {
                case "pause" -> admin.pause() ? 1 : 0;
                case "resume" -> admin.resume() ? 1 : 0;
                case "requeue" -> deadLetters(admin.deadLetters(), ids, all, true);
                case "delete" -> deadLetters(admin.deadLetters(), ids, all, false);
                case "cancel" -> cancel(admin, id, key) ? 1 : 0;
                case "reschedule" -> admin.reschedule(required("id", id), instant(dueAt)) ? 1 : 0;
                default -> throw refused("unknown action '" + action + "'; actions: " + ACTIONS);
            };
            return new WriteResult(queue, action, affected);
        } catch (IllegalArgumentException e) { // the core's refusal of a value, e.g. a due time 100 years ahead
            throw refused(e.getMessage());
        }
    }

    private static Workers workers(QueueWorkers w) {
        String state = !w.isRunning() ? "stopped" : w.isPaused() ? "paused"
                : w.heldQueues().size() == w.locations().size() ? "held" : "running";
        return new Workers(state, w.config().threads(), w.busyWorkers(), w.config().wakeup().name().toLowerCase(Locale.ROOT),
                w.locations().stream().map(QueueLocation::queueName).toList());
    }

    private Topic topic(String name) {
        try {
            Map<String, List<PartitionLag>> partitions = new LinkedHashMap<>();
            for (GroupLag lag : topics.admin(name).lag()) {
                partitions.computeIfAbsent(lag.group(), g -> new ArrayList<>()).add(new PartitionLag(lag.partition(),
                        lag.lag(), lag.committedOffset(), lag.nextOffset(), lag.owner()));
            }
            Map<String, Group> groups = new LinkedHashMap<>();
            partitions.forEach((group, lags) -> groups.put(group,
                    new Group(lags.stream().mapToLong(PartitionLag::lag).sum(), lags)));
            return new Topic(topics.describe(name).partitions(), groups, null);
        } catch (RuntimeException e) {
            return new Topic(null, Map.of(), e.getMessage());
        }
    }

    private static long deadLetters(DeadLetters dead, @Nullable String ids, @Nullable Boolean all, boolean requeue) {
        if (Boolean.TRUE.equals(all) == (ids != null)) {
            throw refused("give either ids (dead letters' ids, comma-separated) or all: true");
        }
        if (ids == null) {
            return requeue ? dead.requeueAll() : dead.deleteAll();
        }
        List<Long> values = new ArrayList<>();
        for (String id : ids.split(",")) {
            values.add(id(id.strip()));
        }
        return requeue ? dead.requeue(values) : dead.delete(values);
    }

    private static boolean cancel(QueueAdmin admin, @Nullable Long taskId, @Nullable String key) {
        if ((taskId == null) == (key == null)) {
            throw refused("give either id (a waiting task's id) or key (the idempotency key it was enqueued with)");
        }
        return taskId != null ? admin.cancel(taskId) : admin.cancelByKey(key);
    }

    private static long id(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw refused("ids must be task ids (whole numbers, comma-separated), was " + value);
        }
    }

    private static Instant instant(@Nullable String dueAt) {
        try {
            return Instant.parse(required("dueAt", dueAt));
        } catch (DateTimeParseException e) {
            throw refused("dueAt must be an ISO-8601 instant such as 2026-01-01T12:00:00Z, was " + dueAt);
        }
    }

    private static <T> T required(String field, @Nullable T value) {
        return Optional.ofNullable(value).orElseThrow(() -> refused(field + " is required for this action"));
    }

    static InvalidEndpointRequestException refused(String reason) {
        return new InvalidEndpointRequestException(reason, reason);
    }
}
