package io.dbqueue;

import io.dbqueue.common.DeliveryMode;
import io.dbqueue.log.GroupConfig;
import io.dbqueue.log.LogAdmin;
import io.dbqueue.log.LogMessage;
import io.dbqueue.log.LogSchema;
import io.dbqueue.log.Topic;
import io.dbqueue.log.TopicProducer;
import io.dbqueue.maintenance.LogRetention;
import io.dbqueue.maintenance.RetentionPolicy;
import io.dbqueue.maintenance.VacuumPolicy;
import io.dbqueue.queue.BatchHandler;
import io.dbqueue.queue.IdempotencyKeys;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueAdmin;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueGroup;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueProducer;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.RetryPolicy;
import io.dbqueue.queue.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every statement the library sends names its shard key: a queue table's statement filters on (or
 * inserts) {@code queue_name}; a topic's statement names one topic's tables and its partition. That is
 * what lets Citus route each statement to one node (queue tables distributed by {@code queue_name},
 * a topic's tables in a distributed schema of their own) and what keeps {@link ShardedDbQueue}'s
 * shards independent. The statements that cannot are listed below with the reason. A workload of
 * every feature runs through a data source that records each statement's text.
 */
class ShardKeyStatementsTest {

    /** Statements that name no single queue or partition, each with why; a pattern over the whole text. */
    private static final Map<Pattern, String> EXEMPT = new LinkedHashMap<>();

    static {
        exempt("^(create|drop|alter|comment|do) ", "DDL: run once per table or topic, on the coordinator");
        exempt("^(begin|commit|rollback|savepoint|release savepoint|rollback to savepoint|set |reset |show )",
                "transaction control and session settings");
        exempt("^vacuum ", "maintenance of a whole table: the library's vacuum (Citus runs it on every shard)");
        exempt("pg_stat|pg_class|pg_namespace|pg_attribute|to_regclass|pg_tables|pg_indexes|current_setting",
                "catalog and statistics reads: no table rows");
        exempt("^(listen|unlisten) |pg_listening_channels|pg_notify\\(|^notify ",
                "wakeups: a channel per queue table or topic, no rows");
        exempt("pg_advisory_unlock_all\\(\\)", "a connection's cleanup, no rows");
        exempt("dbq_topics", "the topic catalog: one small row per topic (a reference table on Citus)");
        exempt("_keys (k )?where (k\\.)?created_at <", "the keys' purge: across a table by age (Citus runs it on every shard)");
        exempt("pg_advisory_xact_lock\\(hashtext\\('dbq_log:'", "a lock per topic partition's segments, no rows");
        exempt("_members ", "a topic group's members: per group, across the topic's partitions, in the topic's schema");
        exempt("_groups g join|_groups set owner = null, lease_until = null where group_name = \\? and owner = \\?"
                        + "|insert into [a-z0-9_]+_groups \\(group_name, partition, committed_offset\\) select",
                "a group's join, release and lag: across the topic's partitions, in the topic's schema");
        exempt("_pauses$", "a door's pause poll: the few paused queues of a table (a reference table on Citus)");
        // Only dbq_seq_pk is keyed by (queue_name, id); on the others a statement on claimed tasks goes by id alone,
        // which Citus would run on every shard. docs/shards.md: on Citus, use dbq_seq_pk.
        exempt("^(?!.*\\bdbq_seq_pk\\b).*(\\bid = any\\(|\\bt\\.id = [a-z]+\\.id\\b)",
                "a layout keyed by id alone (all but dbq_seq_pk): statements on claimed tasks go by id");
    }

    private static void exempt(String regex, String reason) {
        EXEMPT.put(Pattern.compile(regex), reason);
    }

    private static StatementCapture capture;

    @BeforeAll
    static void runEveryFeature() throws Exception {
        capture = new StatementCapture(TestDatabase.dataSource());
        DataSource ds = capture.dataSource();
        for (Layout layout : Layout.presets().stream().filter(TestDatabase::supports).toList()) {
            QueueTable table = QueueTable.of(layout);
            Schema.recreate(ds, table);
            queueWorkload(ds, table);
        }
        topicWorkload(ds);
    }

    private static void queueWorkload(DataSource ds, QueueTable table) throws Exception {
        QueueLocation queue = table.queue("statements");
        QueueLocation other = table.queue("statements-other");
        try (DbQueue dbq = DbQueue.builder(ds).vacuum(new VacuumPolicy(1, Duration.ZERO)).build()) {
            QueueProducer producer = dbq.producer(queue);
            producer.enqueue("now");
            producer.enqueueAll(List.of("later", "later"), Duration.ofHours(1));
            producer.enqueueOnce("k1", "f1", "keyed");
            producer.enqueueAllOnce(List.of("k2", "k3"), List.of("f2", "f3"), List.of("a", "b"), Duration.ZERO);
            producer.enqueueAllOnce(List.of("k4"), List.of("c"), Duration.ZERO);
            try (Connection c = ds.getConnection()) {
                producer.enqueue(c, "in my transaction");
            }
            dbq.producer(other).enqueue("group");
            QueueAdmin admin = dbq.queueAdmin(queue);
            long keyed = admin.taskIdOfKey("k1").orElseThrow();
            admin.find(keyed);
            admin.reschedule(keyed, Instant.now());
            admin.cancelByKey("k4");
            admin.pause();
            admin.stats();
            admin.resume();
            ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
            BatchHandler recording = batch -> batch.tasks().forEach(t -> {
                seen.add(t.payload());
                if (t.payload().equals("a")) {
                    batch.fail(t, "dead");
                } else if (t.payload().equals("b")) {
                    batch.reenqueue(t, Duration.ZERO);
                } else {
                    batch.finish(t);
                }
            });
            QueueConfig dyingAtOnce = QueueConfig.of(queue)
                    .withRetry(RetryPolicy.of(RetryPolicy.RetryType.LINEAR, Duration.ofMillis(1), 1));
            dbq.consume(dyingAtOnce, recording);
            dbq.consume(QueueConfig.of(other).withMode(DeliveryMode.EXACTLY_ONCE), batch -> { });
            dbq.consumeGroup(dyingAtOnce, new QueueGroup(table, List.of("statements", "statements-other"), 1),
                    recording); // takes tasks of both queues too, so it answers as the queue's own consumer does
            Await.until(Duration.ofSeconds(30), table + ": the failed and re-enqueued tasks handled",
                    () -> seen.contains("a") && seen.contains("b"));
            admin.deadLetters().count();
            admin.deadLetters().list(0, 10);
            admin.deadLetters().requeue(List.of(0L));
            admin.deadLetters().delete(List.of(0L));
            admin.deadLetters().requeueAll();
            admin.deadLetters().deleteAll();
            admin.cancel(producer.enqueue("cancelled", Duration.ofHours(1)));
        }
        IdempotencyKeys.purge(ds, table, Duration.ofHours(1));
    }

    private static void topicWorkload(DataSource ds) throws Exception {
        Topic topic = new Topic("statements", 2, 1000);
        LogSchema.recreate(ds, topic);
        try (DbQueue dbq = DbQueue.builder(ds).build()) {
            TopicProducer producer = dbq.topicProducer(topic.name());
            for (int i = 0; i < 8; i++) {
                producer.sendAll(List.of(new LogMessage("k" + i, "m"), LogMessage.of("unkeyed")));
            }
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                producer.sendAll(c, List.of(new LogMessage("k0", "in my transaction")));
                c.commit();
            }
            ConcurrentLinkedQueue<String> read = new ConcurrentLinkedQueue<>();
            dbq.consumeTopic(GroupConfig.of(topic.name(), "g").withMode(DeliveryMode.EXACTLY_ONCE),
                    batch -> batch.records().forEach(r -> read.add(r.payload())));
            dbq.consumeTopic(GroupConfig.of(topic.name(), "h"), batch -> batch.records().forEach(r -> read.add(r.payload())));
            Await.until(Duration.ofSeconds(30), "every record read twice", () -> read.size() == 2 * 17);
            LogAdmin admin = LogAdmin.of(ds, topic.name());
            admin.lag();
            admin.resetGroup("h", 0, 0);
            admin.resetGroup("h", Instant.now().minusSeconds(60));
        }
        LogRetention.of(ds, topic.name(), RetentionPolicy.consumed()).apply();
        LogRetention.of(ds, topic.name(), new RetentionPolicy(Duration.ofMillis(1), 1, false)).apply();
    }

    private static String reasonExempt(String sql) {
        return EXEMPT.entrySet().stream().filter(e -> e.getKey().matcher(sql).find()).map(Map.Entry::getValue)
                .findFirst().orElse(null);
    }

    /** A filter on the queue ({@code queue_name = ?}, {@code = any(...)}, {@code in (...)}) or an insert of it. */
    private static final Pattern QUEUE_KEY = Pattern.compile(
            "queue_name\\s*(=|in\\s*\\()|insert into [a-z0-9_]+( as [a-z]+)?\\s*\\([^)]*\\bqueue_name\\b");
    /** A topic's tables: {@code <topic>_partitions}, {@code _groups}, {@code _members}, {@code _p<n>} and its segments. */
    private static final Pattern LOG_TABLE = Pattern.compile("\\b([a-z][a-z0-9_]*?)_(partitions|groups|members|p\\d+)(_s\\d+)?\\b");
    private static final Pattern PARTITION_KEY = Pattern.compile("_p\\d+\\b|partition = \\?|partition = any \\(\\?\\)");

    /** Why {@code sql} is not routable by its shard key, or null if it is. */
    private static String missingKey(String sql) {
        Set<String> topics = new TreeSet<>();
        Matcher m = LOG_TABLE.matcher(sql);
        while (m.find()) {
            topics.add(m.group(1));
        }
        if (!topics.isEmpty()) {
            if (topics.size() != 1) {
                return "names the tables of " + topics.size() + " topics: " + topics;
            }
            return PARTITION_KEY.matcher(sql).find() ? null : "names no partition";
        }
        return QUEUE_KEY.matcher(sql).find() ? null : "filters on no queue_name";
    }

    @Test
    void everyStatementNamesItsQueueOrItsTopicAndPartitionUnlessListedWithAReason() {
        Set<String> statements = capture.statements();
        assertTrue(statements.size() > 40, "the workload sent the library's statements: " + statements.size());
        List<String> unkeyed = new ArrayList<>();
        for (String statement : statements) {
            String sql = statement.toLowerCase();
            if (reasonExempt(sql) == null && missingKey(sql) != null) {
                unkeyed.add(missingKey(sql) + ": " + statement);
            }
        }
        assertEquals(List.of(), unkeyed);
    }

    @Test
    void everyExemptionIsUsed() {
        Set<String> statements = capture.statements();
        List<String> unused = new ArrayList<>();
        for (Map.Entry<Pattern, String> e : EXEMPT.entrySet()) {
            if (statements.stream().map(String::toLowerCase).noneMatch(s -> e.getKey().matcher(s).find())) {
                unused.add(e.getValue() + " (" + e.getKey() + ")");
            }
        }
        assertEquals(List.of(), unused, "exemptions no statement needs: remove them");
    }
}
