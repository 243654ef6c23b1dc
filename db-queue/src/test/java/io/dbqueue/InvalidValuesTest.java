package io.dbqueue;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.common.InvalidValueException;
import io.dbqueue.common.Transactions;
import io.dbqueue.log.GroupConfig;
import io.dbqueue.log.Topic;
import io.dbqueue.maintenance.Maintenance;
import io.dbqueue.maintenance.RetentionPolicy;
import io.dbqueue.maintenance.VacuumPolicy;
import io.dbqueue.queue.ClaimOrder;
import io.dbqueue.queue.CoalescingProducer;
import io.dbqueue.queue.IdempotencyKeys;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.PollSettings;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueGroup;
import io.dbqueue.queue.QueueListener;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.queue.RetryPolicy;
import io.dbqueue.schedule.Schedule;
import io.dbqueue.schedule.Trigger;
import io.dbqueue.serverwatch.VacuumThresholds;
import io.dbqueue.serverwatch.VacuumWatch;
import io.dbqueue.wakeup.CoalescingNotifier;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;
import org.postgresql.ds.PGSimpleDataSource;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import static io.dbqueue.queue.RetryPolicy.RetryType.LINEAR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A bad value of each configuration type fails with an {@link InvalidValueException} that names the
 * value's field as the type calls it, the rule it broke and the value itself. Nothing here reaches a
 * database: every check runs before the data source is used, and the data source points nowhere.
 */
class InvalidValuesTest {

    /** Never connected to: a check that reached the database would fail with a connection error. */
    private static final DataSource NOWHERE = new PGSimpleDataSource();
    private static final QueueTable TABLE = QueueTable.of(Layout.DBQ_SEQ);
    private static final QueueLocation QUEUE = TABLE.queue("q");
    private static final QueueConfig CONFIG = QueueConfig.of(QUEUE);
    private static final Duration NEGATIVE = Duration.ofMillis(-1);
    private static final String BAD_NAME = "bad; DROP TABLE x";
    private static final RetentionPolicy KEEP_CONSUMED = new RetentionPolicy(null, 0, true);

    private record Case(String type, Executable call, String field, String rule, Object value) {
    }

    private static final String POSITIVE = "must be positive";
    private static final String NOT_NEGATIVE = "must be zero or positive";
    private static final String LONGEST = "must be at most 100 years (36525 days)";
    private static final String TABLE_NAME = "must be a table name of 1 to 48 characters from a-z, 0-9 and _,"
            + " not starting with a digit";
    private static final String TOPIC_NAME = "must be a topic name of 1 to 40 characters from a-z, 0-9 and _,"
            + " not starting with a digit";
    private static final String QUEUE_NAME = "must be a queue name of 1 to 128 characters from A-Z, a-z, 0-9 and _ . : -";
    private static final String GROUP_NAME = "must be a group name of 1 to 128 characters from A-Z, a-z, 0-9 and _ . : -";

    private static List<Case> cases() {
        Layout seq = Layout.DBQ_SEQ;
        QueueGroup group = new QueueGroup(TABLE, List.of("a"), 1);
        QueueConfig elsewhere = QueueConfig.of(new QueueTable("other_table", seq).queue("a"));
        GroupConfig logGroup = GroupConfig.of("events", "g");
        return List.of(
                new Case("QueueConfig", () -> CONFIG.withThreads(0), "threads", "must be between 1 and 1000", 0),
                new Case("QueueConfig", () -> CONFIG.withLeaseTimeout(Duration.ofSeconds(Long.MAX_VALUE)), "leaseTimeout",
                        LONGEST, Duration.ofSeconds(Long.MAX_VALUE)),
                new Case("GroupConfig", () -> logGroup.withLease(Duration.ofDays(36_526)), "lease", LONGEST,
                        Duration.ofDays(36_526)),
                new Case("RetryPolicy", () -> RetryPolicy.DEFAULT.withMaxDelay(Duration.ofDays(36_526)), "maxDelay",
                        LONGEST, Duration.ofDays(36_526)),
                new Case("Trigger.Interval", () -> Trigger.every(Duration.ofDays(36_526)), "interval", LONGEST,
                        Duration.ofDays(36_526)),
                new Case("Topic", () -> new Topic("events", 1, Long.MAX_VALUE), "segmentSize",
                        "must be 1000 to 1000000000000 offsets", Long.MAX_VALUE),
                new Case("QueueTable", () -> new QueueTable("user", seq), "name",
                        "must be a table name other than a reserved SQL key word", "user"),
                new Case("QueueConfig", () -> CONFIG.withThreads(1001), "threads", "must be between 1 and 1000", 1001),
                new Case("QueueConfig", () -> CONFIG.withLeaseTimeout(Duration.ZERO), "leaseTimeout", POSITIVE,
                        Duration.ZERO),
                new Case("QueueConfig", () -> CONFIG.withLeaseTimeout(null), "leaseTimeout", POSITIVE, null),
                new Case("QueueConfig", () -> CONFIG.withLeaseTimeout(Duration.ofNanos(500)), "leaseTimeout",
                        "must be at least 1 ms", Duration.ofNanos(500)),
                new Case("PollSettings", () -> PollSettings.DEFAULT.withBatchSize(0), "batchSize",
                        "must be between 1 and 10000", 0),
                new Case("PollSettings", () -> CONFIG.withBatchSize(10_001), "batchSize",
                        "must be between 1 and 10000", 10_001),
                new Case("PollSettings", () -> PollSettings.DEFAULT.withTimeouts(NEGATIVE, Duration.ZERO, Duration.ZERO),
                        "betweenTaskTimeout", NOT_NEGATIVE, NEGATIVE),
                new Case("PollSettings", () -> PollSettings.DEFAULT.withTimeouts(Duration.ZERO, NEGATIVE, Duration.ZERO),
                        "noTaskTimeout", NOT_NEGATIVE, NEGATIVE),
                new Case("PollSettings", () -> PollSettings.DEFAULT.withTimeouts(Duration.ZERO, Duration.ZERO, null),
                        "fatalCrashTimeout", NOT_NEGATIVE, null),
                new Case("RetryPolicy", () -> RetryPolicy.of(LINEAR, Duration.ZERO, 1), "interval", POSITIVE,
                        Duration.ZERO),
                new Case("RetryPolicy", () -> RetryPolicy.of(LINEAR, Duration.ofSeconds(1), 0), "maxAttempts",
                        "must be at least 1", 0),
                new Case("RetryPolicy", () -> RetryPolicy.DEFAULT.withJitter(1.5), "jitter", "must be between 0 and 1",
                        1.5),
                new Case("RetryPolicy", () -> RetryPolicy.DEFAULT.withJitter(Double.NaN), "jitter",
                        "must be between 0 and 1", Double.NaN),
                new Case("RetryPolicy", () -> RetryPolicy.DEFAULT.withMaxDelay(Duration.ofMillis(100)), "maxDelay",
                        "must be at least the interval", Duration.ofMillis(100)),
                new Case("VacuumPolicy", () -> new VacuumPolicy(-1, Duration.ZERO), "claimedTasks",
                        "must be 0 (off) or more", -1L),
                new Case("VacuumPolicy", () -> new VacuumPolicy(1, Duration.ofSeconds(-1)), "minInterval",
                        "must not be negative", Duration.ofSeconds(-1)),
                new Case("QueueTable", () -> new QueueTable(BAD_NAME, seq), "name", TABLE_NAME, BAD_NAME),
                new Case("QueueTable", () -> new QueueTable("t".repeat(51), seq), "name", TABLE_NAME, "t".repeat(51)),
                new Case("QueueLocation", () -> TABLE.queue(""), "queueName", QUEUE_NAME, ""),
                new Case("QueueLocation", () -> TABLE.queue("a'b"), "queueName", QUEUE_NAME, "a'b"),
                new Case("Layout", () -> seq.withPartitions(1025), "partitions", "must be between 0 and 1024", 1025),
                new Case("Layout", () -> seq.withTableOptions(Map.of("fillfactor", "1); --")), "tableOptions",
                        "must be storage options whose names are lower-case identifiers and values numbers or words",
                        "fillfactor=1); --"),
                new Case("Layout", () -> new Layout("x", "", ClaimOrder.ID, false, Layout.ClaimIndex.NONE, Map.of(),
                        Map.of("Deduplicate", "on"), 0), "indexOptions",
                        "must be storage options whose names are lower-case identifiers and values numbers or words",
                        "Deduplicate=on"),
                new Case("Layout", () -> new Layout("X", "", ClaimOrder.ID, false, Layout.ClaimIndex.NONE, Map.of(),
                        Map.of(), 0), "name", TABLE_NAME, "X"),
                new Case("Layout", () -> new Layout("x", "", ClaimOrder.PRIORITY, false, Layout.ClaimIndex.QUEUE_ID,
                        Map.of(), Map.of(), 0), "claimIndex",
                        "must be PRIORITY_ID or PRIORITY_KEY exactly when claimOrder is PRIORITY", Layout.ClaimIndex.QUEUE_ID),
                new Case("CoalescingProducer.Settings", () -> new CoalescingProducer.Settings(NEGATIVE, 1), "linger",
                        NOT_NEGATIVE, NEGATIVE),
                new Case("CoalescingProducer.Settings", () -> new CoalescingProducer.Settings(Duration.ZERO, 100_001),
                        "maxBatch", "must be between 1 and 100000", 100_001),
                new Case("QueueGroup", () -> new QueueGroup(TABLE, List.of(), 1), "queueNames",
                        "must hold at least one queue name", List.of()),
                new Case("QueueGroup", () -> new QueueGroup(TABLE, List.of("a", "a"), 1), "queueNames",
                        "must name each queue once", List.of("a", "a")),
                new Case("QueueGroup", () -> new QueueGroup(TABLE, List.of("a", "bad name;"), 1), "queueNames",
                        QUEUE_NAME, "bad name;"),
                new Case("QueueGroup", () -> new QueueGroup(TABLE, List.of("a"), 0), "maxWorkersPerQueue",
                        "must be at least 1", 0),
                new Case("QueueWorkers.startGroup", () -> QueueWorkers.startGroup(NOWHERE, elsewhere, group,
                        batch -> { }, QueueListener.NONE, Executors.defaultThreadFactory(), Transactions.JDBC),
                        "location.table", "must be the group's table dbq_seq", "other_table"),
                new Case("QueueWorkers.startWithExecutor", () -> QueueWorkers.startWithExecutor(NOWHERE,
                        CONFIG.withMode(DeliveryMode.EXACTLY_ONCE), batch -> { }, QueueListener.NONE,
                        Executors.defaultThreadFactory(), Runnable::run, 1), "mode",
                        "must be AT_LEAST_ONCE or AT_MOST_ONCE with an external executor (EXACTLY_ONCE claims, handles"
                                + " and finishes a batch in one transaction on the worker's connection)",
                        DeliveryMode.EXACTLY_ONCE),
                new Case("QueueWorkers.startWithExecutor", () -> QueueWorkers.startWithExecutor(NOWHERE, CONFIG,
                        batch -> { }, QueueListener.NONE, Executors.defaultThreadFactory(), Runnable::run, 0),
                        "maxBatchesInFlight", "must be at least 1", 0),
                new Case("IdempotencyKeys.purge", () -> IdempotencyKeys.purge(NOWHERE, TABLE, NEGATIVE), "retention",
                        NOT_NEGATIVE, NEGATIVE),
                new Case("CoalescingNotifier", () -> new CoalescingNotifier(NOWHERE, NEGATIVE), "interval",
                        NOT_NEGATIVE, NEGATIVE),
                new Case("DbQueue.Builder", () -> DbQueue.builder(NOWHERE).notifyInterval(NEGATIVE), "notifyInterval",
                        NOT_NEGATIVE, NEGATIVE),
                new Case("DbQueue.Builder", () -> DbQueue.builder(NOWHERE).topicNotifyInterval(null),
                        "topicNotifyInterval", NOT_NEGATIVE, null),
                new Case("DbQueue.Builder", () -> DbQueue.builder(NOWHERE).shutdownTimeout(NEGATIVE), "shutdownTimeout",
                        NOT_NEGATIVE, NEGATIVE),
                new Case("DbQueue.Builder", () -> DbQueue.builder(NOWHERE).idempotencyKeyRetention(Duration.ZERO),
                        "idempotencyKeyRetention", POSITIVE, Duration.ZERO),
                new Case("DbQueue.Builder", () -> DbQueue.builder(NOWHERE).retention("events", KEEP_CONSUMED,
                        Duration.ZERO), "retentionInterval", POSITIVE, Duration.ZERO),
                new Case("DbQueue.Builder", () -> DbQueue.builder(NOWHERE).vacuumWatch(
                        new VacuumWatch(NOWHERE, List.of(TABLE)), NEGATIVE), "interval", POSITIVE, NEGATIVE),
                new Case("Maintenance.retain", () -> {
                    try (Maintenance maintenance = new Maintenance(NOWHERE, Duration.ofHours(1))) {
                        maintenance.retain("events", KEEP_CONSUMED, Duration.ZERO);
                    }
                }, "interval", POSITIVE, Duration.ZERO),
                new Case("VacuumThresholds", () -> new VacuumThresholds(NEGATIVE, 0, 0), "horizonAge", NOT_NEGATIVE,
                        NEGATIVE),
                new Case("VacuumThresholds", () -> new VacuumThresholds(Duration.ZERO, -1, 0), "horizonTransactions",
                        NOT_NEGATIVE, -1L),
                new Case("VacuumThresholds", () -> new VacuumThresholds(Duration.ZERO, 0, -5), "deadTuples",
                        NOT_NEGATIVE, -5L),
                new Case("VacuumWatch.start", () -> new VacuumWatch(NOWHERE, List.of(TABLE)).start(Duration.ZERO),
                        "interval", POSITIVE, Duration.ZERO),
                new Case("Topic", () -> Topic.of(BAD_NAME, 1), "name", TOPIC_NAME, BAD_NAME),
                new Case("Topic", () -> Topic.of("events", 0), "partitions", "must be 1 to 1024", 0),
                new Case("Topic", () -> new Topic("events", 1, 999), "segmentSize", "must be 1000 to 1000000000000 offsets",
                        999L),
                new Case("RetentionPolicy", () -> new RetentionPolicy(Duration.ZERO, 0, false), "maxAge",
                        "must be positive or null", Duration.ZERO),
                new Case("RetentionPolicy", () -> new RetentionPolicy(null, -1, true), "maxBytes",
                        "must be zero (no limit) or positive", -1L),
                new Case("GroupConfig", () -> GroupConfig.of(BAD_NAME, "g"), "topic", TOPIC_NAME, BAD_NAME),
                new Case("GroupConfig", () -> GroupConfig.of("events", "g h"), "group", GROUP_NAME, "g h"),
                new Case("GroupConfig", () -> logGroup.withMemberId(""), "memberId", GROUP_NAME, ""),
                new Case("GroupConfig", () -> logGroup.withBatchSize(0), "batchSize", "must be 1 to 10000", 0),
                new Case("GroupConfig", () -> logGroup.withLease(Duration.ofMillis(299)), "lease",
                        "must be at least 300 ms", Duration.ofMillis(299)),
                new Case("GroupConfig", () -> logGroup.withPollInterval(Duration.ZERO), "pollInterval", POSITIVE,
                        Duration.ZERO),
                new Case("Schedule", () -> Schedule.every("a b", QUEUE, Duration.ofSeconds(1)), "name",
                        "must be a schedule name of 1 to 128 characters from A-Z, a-z, 0-9 and _ . : -", "a b"),
                new Case("Schedule", () -> Schedule.every("s", QUEUE, Duration.ofSeconds(1)).withPayload(null),
                        "payload", "must be text without NUL characters or unpaired surrogates", null),
                new Case("Trigger.Interval", () -> Trigger.every(Duration.ofNanos(10)), "interval",
                        "must be whole milliseconds", Duration.ofNanos(10)),
                new Case("Trigger.Interval", () -> Trigger.every(NEGATIVE), "interval", POSITIVE, NEGATIVE),
                new Case("Trigger.Cron", () -> Trigger.cron("* * * * * * *", null), "cron",
                        "must have 5 fields (minute hour day-of-month month day-of-week) or 6 (second first), had 7",
                        "* * * * * * *"),
                new Case("Trigger.Cron", () -> Trigger.cron("* * * * *", null), "zone",
                        "must be a time zone, e.g. Europe/Paris or UTC", null),
                new Case("DbQueue.Builder", () -> DbQueue.builder(NOWHERE).scheduleCheckInterval(Duration.ZERO),
                        "scheduleCheckInterval", POSITIVE, Duration.ZERO));
    }

    @TestFactory
    Stream<DynamicTest> aBadValueOfEachConfigurationTypeNamesItsFieldAndRule() {
        return cases().stream().map(c -> DynamicTest.dynamicTest(c.type() + " " + c.field() + " = " + c.value(), () -> {
            InvalidValueException e = assertThrows(InvalidValueException.class, c.call());
            assertEquals(c.field(), e.field(), e.getMessage());
            assertEquals(c.rule(), e.rule(), e.getMessage());
            assertEquals(c.value(), e.value(), e.getMessage());
        }));
    }

    @Test
    void theMessageReadsFieldRuleAndValue() {
        InvalidValueException e = assertThrows(InvalidValueException.class, () -> CONFIG.withBatchSize(0));
        assertEquals("batchSize must be between 1 and 10000, was 0", e.getMessage());
    }
}
