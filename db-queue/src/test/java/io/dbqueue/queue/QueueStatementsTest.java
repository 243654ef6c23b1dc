package io.dbqueue.queue;

import io.dbqueue.TestDatabase;
import io.dbqueue.common.DeliveryMode;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import javax.sql.DataSource;
import java.lang.reflect.Proxy;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the queue's statements ask of PostgreSQL besides the rows: commit durability and plan caching. */
class QueueStatementsTest {

    private static final Duration LEASE = Duration.ofMinutes(5);

    private final DataSource ds = TestDatabase.dataSource();

    @Test
    void aLeaseCommitsWithoutWaitingForAFlushAndLeavesTheSettingToItsTransaction() throws SQLException {
        try (Connection c = ds.getConnection()) {
            assertEquals("off", synchronousCommitAfterClaim(c, DeliveryMode.AT_LEAST_ONCE),
                    "the lease's transaction does not wait for a flush");
            c.commit();
            assertEquals("on", synchronousCommit(c), "the next transaction on the connection is durable again");
        }
    }

    @Test
    void anAtLeastOnceFinishCommitsWithoutWaitingForAFlushAndLeavesTheSettingToItsTransaction() throws SQLException {
        QueueLocation queue = queueWithTasks(Layout.DBQ_SEQ, 10);
        TaskStore store = new TaskStore(queue);
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(true);
            List<Task> tasks = store.claim(c, 10, DeliveryMode.AT_LEAST_ONCE, LEASE);
            c.setAutoCommit(false);
            store.finishWithoutFlush(c, tasks);
            assertEquals("off", synchronousCommit(c), "the finish's transaction does not wait for a flush");
            c.commit();
            assertEquals("on", synchronousCommit(c), "the next transaction on the connection is durable again");
            c.commit();
        }
        assertEquals(0, new QueueMonitor(ds, queue).depth().tasks());
    }

    @Test
    void anExactlyOnceClaimKeepsItsTransactionDurable() throws SQLException {
        try (Connection c = ds.getConnection()) {
            assertEquals("on", synchronousCommitAfterClaim(c, DeliveryMode.EXACTLY_ONCE),
                    "the handler's work and the delete commit with this transaction");
            c.rollback();
        }
    }

    /** With a limit bound as a parameter, a claim on 2,000 waiting tasks got a custom plan every time. */
    @Test
    void claimsOnAPartitionedTableReuseOneGenericPlan() throws SQLException {
        QueueLocation queue = queueWithTasks(Layout.QUEUE_TASKS_5, 2000);
        String table = queue.table().name();
        // No autovacuum during the test: its ANALYZE would invalidate the plans and restart the count.
        for (int p = 0; p < Layout.QUEUE_TASKS_5.partitions(); p++) {
            TestDatabase.execute("ALTER TABLE " + table + "_p" + p + " SET (autovacuum_enabled = off)");
        }
        TestDatabase.execute("ANALYZE " + table);
        TaskStore store = new TaskStore(queue);
        // A connection of its own: a pooled one may hold a prepared claim from an earlier table of this name.
        try (Connection c = TestDatabase.server().connect()) {
            c.setAutoCommit(false);
            for (int i = 0; i < 30; i++) {
                assertEquals(10, store.claim(c, 10, DeliveryMode.EXACTLY_ONCE, LEASE).size());
                c.rollback();
            }
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                         + " WHERE statement LIKE '%FOR UPDATE SKIP LOCKED%'")) {
                assertTrue(rs.next(), "the claim is a server-side prepared statement");
                long generic = rs.getLong(1);
                assertTrue(generic >= 20, "after five custom plans the claim runs its cached generic plan, ran "
                        + generic + " generic and " + rs.getLong(2) + " custom");
            }
            c.rollback();
        }
    }

    /**
     * Left to choose, the server planned a priority claim from its floors (a union of parts) anew for nearly every
     * claim of a drain: 0.2-0.37 ms of planning each, against about 1 ms of execution for 100 tasks.
     */
    @Test
    void claimsRunTheirCachedGenericPlansFromTheFirstServerSidePreparedOne() throws SQLException {
        for (Layout layout : new Layout[] {Layout.DBQ_SEQ_PRIORITY, Layout.DBQ_SEQ_PK}) {
            QueueLocation queue = queueWithTasks(layout, 300);
            TestDatabase.execute("ALTER TABLE " + queue.table().name() + " SET (autovacuum_enabled = off)");
            TaskStore store = new TaskStore(queue);
            try (Connection c = TestDatabase.server().connect()) {
                for (int i = 0; i < 20; i++) {
                    assertEquals(10, store.claim(c, 10, DeliveryMode.AT_LEAST_ONCE, LEASE).size());
                }
                try (Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT count(*), sum(generic_plans), sum(custom_plans)"
                             + " FROM pg_prepared_statements WHERE statement LIKE '%FOR UPDATE SKIP LOCKED%'")) {
                    rs.next();
                    assertTrue(rs.getLong(1) > 0, layout.name() + ": the claim is a server-side prepared statement");
                    assertEquals(0, rs.getLong(3), layout.name() + ": custom plans of the claims");
                    assertTrue(rs.getLong(2) >= 10, layout.name() + ": generic plans of the claims: " + rs.getLong(2));
                }
            }
        }
    }

    /** Without it, every delete of the same run got a custom plan. */
    @Test
    void anExactlyOnceFinishOnAPartitionedTableRunsACachedGenericPlan() throws Exception {
        QueueLocation queue = queueWithTasks(Layout.QUEUE_TASKS_5, 300);
        CountDownLatch handled = new CountDownLatch(300);
        try (HikariDataSource oneConnection = TestDatabase.server().dataSource(1)) {
            QueueWorkers workers = QueueWorkers.start(oneConnection,
                    QueueConfig.of(queue).withMode(DeliveryMode.EXACTLY_ONCE).withThreads(1),
                    batch -> batch.tasks().forEach(task -> handled.countDown()));
            assertTrue(handled.await(30, TimeUnit.SECONDS), "all tasks handled");
            workers.shutdown(Duration.ofSeconds(10));
            try (Connection c = oneConnection.getConnection(); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                         + " WHERE statement LIKE 'DELETE FROM " + queue.table().name() + " WHERE id = ANY%'")) {
                assertTrue(rs.next(), "the finish is a server-side prepared statement");
                assertEquals(0, rs.getLong(2), "custom plans of the finish");
                assertTrue(rs.getLong(1) >= 20, "generic plans of the finish: " + rs.getLong(1));
            }
        }
        assertEquals(0, TestDatabase.queryLong("SELECT count(*) FROM " + queue.table().name()));
    }

    /**
     * A queue's statistics are what vacuum saw when it last ran, often an almost empty table. On
     * them a claim written as {@code IN (subquery)} with the planner left alone sorted every due row
     * of a backlog (a bitmap scan and a sort), or ran its locking subquery once per row of the table.
     */
    @Test
    void aClaimWalksTheClaimIndexOnStatisticsTakenWhileTheQueueWasAlmostEmpty() throws SQLException {
        for (Layout layout : new Layout[] {Layout.DBQ_SEQ, Layout.QUEUE_TASKS_2, Layout.DBQ_SEQ_PK}) {
            QueueLocation queue = vacuumedAlmostEmpty(layout, 5_000, 10, true);
            String table = queue.table().name();
            String unguided = plan(null, "SELECT id FROM " + table + " WHERE queue_name = 'claims'"
                    + " AND next_process_at <= now() ORDER BY " + layout.claimOrder().orderBy()
                    + " LIMIT 100 FOR UPDATE SKIP LOCKED", queue, DeliveryMode.AT_MOST_ONCE);
            assertTrue(unguided.contains("Sort"), "control: these statistics lead the planner to sort the backlog on "
                    + layout.name() + ":\n" + unguided);
            QueueSql sql = new QueueSql(queue.table());
            for (DeliveryMode mode : DeliveryMode.values()) {
                String plan = plan(sql.claimSettings(Delivery.of(mode)), sql.claim(Delivery.of(mode), 100), queue, mode);
                String index = table + (layout.claimIndex() == Layout.ClaimIndex.PRIMARY_KEY ? "_pkey" : "_claim_idx");
                assertTrue(plan.contains("Index Scan using " + index), layout.name() + " " + mode + ":\n" + plan);
                for (String avoided : new String[] {"Sort", "Bitmap", "Seq Scan", "Semi Join"}) {
                    assertFalse(plan.contains(avoided), layout.name() + " " + mode + " plan has " + avoided + ":\n" + plan);
                }
                if (layout.claimIndex() == Layout.ClaimIndex.PRIMARY_KEY) {
                    assertEquals(count(plan, "Index Scan"), count(plan, "Index Cond: ((queue_name = "),
                            "every scan of the key starts at the queue, none reads the whole key: " + mode + ":\n" + plan);
                }
            }
        }
    }

    /**
     * A priority claim from its floors ({@link ClaimCursor}) reads its ranges of priorities with one scan of the claim
     * index, run for each range, whose start (the range's priorities and its floor's id) is an index condition rather
     * than a filter on the rows read, in the generic plan the claim runs, both on statistics taken while the queue was
     * almost empty and on a backlog's. On the backlog's, a level written as {@code priority = ?} was read from its
     * floor by the primary key on id, every other level's rows fetched there and filtered out. (That the floors are
     * bound and kept to: {@code ClaimCursorTest}.)
     */
    static Stream<Layout> priorityLayouts() {
        return Layout.presets().stream().filter(Layout::priorities);
    }

    @ParameterizedTest
    @MethodSource("priorityLayouts")
    void aPriorityClaimStartsEachRangeOfPrioritiesAtItsFloorInTheClaimIndex(Layout layout) throws SQLException {
        QueueLocation almostEmpty = vacuumedAlmostEmpty(layout, 5_000, 10, true);
        assertStartsEachRangeAtItsFloor(almostEmpty, "almost empty");
        QueueLocation backlog = TestDatabase.freshTable(layout).queue("claims");
        String table = backlog.table().name();
        TestDatabase.execute("ALTER TABLE " + table + " SET (autovacuum_enabled = off)");
        TestDatabase.execute("INSERT INTO " + table + " (queue_name, payload, priority) SELECT 'claims', repeat('x', 100),"
                + " (g - 1) / 100 % 4 FROM generate_series(1, 100000) g"); // batches of 100 in turn on 4 levels
        TestDatabase.execute("VACUUM ANALYZE " + table);
        assertStartsEachRangeAtItsFloor(backlog, "a backlog on 4 levels");
    }

    private static void assertStartsEachRangeAtItsFloor(QueueLocation queue, String statistics)
            throws SQLException {
        String table = queue.table().name();
        boolean keyed = queue.table().layout().claimIndex().keyedByQueue();
        ClaimCursor.Floor floor = new ClaimCursor.Floor(new TreeMap<>(Map.of(3, 40_000L, 1, 30_000L)));
        QueueSql sql = new QueueSql(queue.table());
        for (DeliveryMode mode : DeliveryMode.values()) {
            String plan = plan(sql.claimSettings(Delivery.of(mode)), sql.claim(Delivery.of(mode), 100), queue, mode, floor);
            String where = statistics + ", " + mode + ":\n" + plan;
            assertTrue(plan.contains("Nested Loop") && plan.contains("Function Scan on r"),
                    "one scan for each range of priorities in turn: " + where);
            // the claimed ids: by the primary key, or where the claim index is the key, by it
            int byClaimedIds = count(plan, "(id = ANY ");
            assertEquals(1 + (keyed ? byClaimedIds : 0), count(plan, "Index Scan using " + table + "_claim_idx"),
                    "the ranges in one scan: " + where);
            assertEquals(keyed ? 0 : byClaimedIds, count(plan, "Index Scan using " + table + "_pkey"),
                    "the primary key only for the claimed ids: " + where);
            List<String> lines = plan.lines().map(String::trim).toList();
            String condition = lines.get(lines.indexOf(lines.stream()
                    .filter(line -> line.contains("Index Scan using " + table + "_claim_idx")).findFirst().orElseThrow()) + 1);
            for (String bound : new String[] {"(priority >= r.lowest)", "(priority <= r.highest)", "(id >= r.from_id)"}) {
                assertTrue(condition.startsWith("Index Cond: ") && condition.contains(bound),
                        "a range starts at its priorities and its floor in the claim index, " + bound + ": " + where);
            }
            for (String avoided : new String[] {"Sort", "Bitmap", "Seq Scan"}) {
                assertFalse(plan.contains(avoided), "plan has " + avoided + ": " + where);
            }
        }
    }

    /**
     * Once vacuum has seen the table empty (as it often does under a queue whose consumers keep up),
     * the planner costs every index scan at about one row, and answered {@code id = ANY(...)} by
     * reading the whole (queue_name, id) claim index, which PostgreSQL 15 cannot skip the queue column
     * of: on a bloated index one finish took ~100 ms and the consumers stalled for seconds. The claim
     * index is partial on a condition only statements naming the queue imply, so statements by id go
     * by the primary key.
     */
    @Test
    void statementsByIdGoByThePrimaryKeyOnStatisticsOfAnEmptyTable() throws SQLException {
        for (Layout layout : new Layout[] {Layout.DBQ_SEQ, Layout.DBQ_SEQ_COVERING, Layout.DBQ_SEQ_EAGER_VACUUM}) {
            QueueLocation queue = vacuumedAlmostEmpty(layout, 20_000, 0, false);
            String table = queue.table().name();
            QueueSql sql = new QueueSql(queue.table());
            String index = table + "_claim_idx";
            try (Connection c = TestDatabase.server().connect()) {
                c.setAutoCommit(false);
                for (String statement : new String[] {sql.finish, sql.release}) {
                    try (PreparedStatement ps = c.prepareStatement("EXPLAIN " + statement)) {
                        Long[] ids = {1L, 2L, 3L};
                        ps.setArray(1, c.createArrayOf("bigint", ids));
                        if (statement.equals(sql.release)) { // and the claimed attempts, by the ids' places
                            ps.setArray(2, c.createArrayOf("int", new Integer[] {1, 1, 1}));
                            ps.setArray(3, c.createArrayOf("bigint", ids));
                        }
                        String plan = lines(ps);
                        assertTrue(plan.contains(table + "_pkey"), layout.name() + ":\n" + plan);
                        assertFalse(plan.contains(index), layout.name() + ":\n" + plan);
                    }
                }
                c.rollback();
            }
            for (DeliveryMode mode : new DeliveryMode[] {DeliveryMode.AT_LEAST_ONCE, DeliveryMode.AT_MOST_ONCE}) {
                String plan = plan(sql.claimSettings(Delivery.of(mode)), sql.claim(Delivery.of(mode), 100), queue, mode);
                assertTrue(plan.contains("Index Scan using " + index), layout.name() + " " + mode + ":\n" + plan);
                assertEquals(List.of(), wholeIndexScans(plan, index), layout.name() + " " + mode + ":\n" + plan);
            }
        }
    }

    /**
     * On dbq_seq_pk a statement by id names the queue, so that the key (queue_name, id) serves it; but a generic
     * plan costed on statistics taken while the queue was almost empty scanned the key by queue_name alone and
     * filtered the ids, reading the whole queue (on PostgreSQL 15 in a lab run: 10,000 rows read for each finish
     * of 100). The statements also give the range of the batch's ids, which bounds the scan of any such plan.
     */
    @Test
    void aGenericPlanOfAStatementOnTasksByIdReadsNoMoreThanTheirRange() throws SQLException {
        QueueLocation queue = vacuumedAlmostEmpty(Layout.DBQ_SEQ_PK, 20_000, 0, false);
        QueueSql sql = new QueueSql(queue.table());
        String key = queue.table().name() + "_pkey";
        try (Connection c = TestDatabase.server().connect(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute(QueueSql.GENERIC_PLANS);
            String ids = "('{70001,70002,70003}', 'claims', 70001, 70003)"; // ids, queue, lowest, highest
            String released = "('{70001,70002,70003}', '{1,1,1}', '{70001,70002,70003}', 'claims', 70001, 70003)";
            String floor = String.valueOf(ClaimCursor.Floor.FROM_START.id(0));
            Map<String, String> statements = Map.of(sql.finish, ids, sql.release, released,
                    sql.claim(Delivery.of(DeliveryMode.AT_LEAST_ONCE), 100), "(30000000, 'claims', " + floor + ", 'claims')",
                    sql.claim(Delivery.of(DeliveryMode.AT_MOST_ONCE), 100), "('claims', " + floor + ", 'claims')");
            int n = 0;
            for (Map.Entry<String, String> statement : statements.entrySet()) {
                String plan = genericPlan(st, "by_id_" + n++, statement.getKey(), statement.getValue());
                String[] lines = plan.split("\n");
                for (int i = 0; i < lines.length - 1; i++) {
                    if (lines[i].contains("Scan using " + key)) {
                        String condition = lines[i + 1].trim();
                        assertTrue(condition.startsWith("Index Cond: ((queue_name = ") && condition.contains("(id "),
                                "each scan of the key starts at the batch or the floor, not at the queue:\n" + plan);
                    }
                }
            }
            c.rollback();
        }
    }

    /**
     * An operator's statements by id (find, cancel, cancel by key, reschedule), the enqueues by key (once, unique)
     * and the purge of old keys look up a task by its id. On statistics taken while the queue was almost empty, a
     * generic plan of each must still find the task through an index that leads to its id, on each of our layouts:
     * never by scanning the table, nor by reading a whole queue from a claim index whose id comes after the priority
     * (where that index is the only key, PostgreSQL 18 skips over the priorities; the layout needs 18, and before
     * 18 this test leaves it out). The experiment's layouts keep its
     * full claim index on (queue_name, next_process_at, id DESC), which such a plan does read for these look-ups
     * (docs/layouts.md says so); they are kept for comparison.
     */
    @Test
    void statementsThatLookUpATaskByIdReadOnlyItOnStatisticsOfAnAlmostEmptyTable() throws SQLException {
        List<String> wrong = new ArrayList<>();
        for (Layout layout : Layout.presets()) {
            if (!layout.claimOrder().bySequence() || !TestDatabase.supports(layout)) {
                continue;
            }
            QueueLocation queue = vacuumedAlmostEmpty(layout, 20_000, 0, false);
            String table = queue.table().name();
            QueueSql sql = new QueueSql(queue.table());
            boolean q = sql.byIdNamesQueue;
            String id = "70001";
            String keys = "'{k1,k2}', '{p1,p2}', '{NULL,NULL}'"; // keys, payloads, request fingerprints
            Map<String, String> statements = Map.of(
                    sql.find, "(" + id + ", 'claims', " + id + ", 'claims')",
                    sql.cancel, "('claims', " + id + (q ? ", 'claims')" : ")"),
                    sql.cancelByKey, "('claims', 'claims', 'k1'" + (q ? ", 'claims')" : ")"),
                    sql.reschedule, "(now(), 'claims', " + id + (q ? ", 'claims')" : ")"),
                    sql.enqueueOnce, "(" + keys + ", 'claims', 'claims')",
                    sql.enqueueUnique, "(0, 'claims', false, false, true, " + keys + ")",
                    sql.purgeKeys, "(1000000)");
            try (Connection c = TestDatabase.server().connect(); Statement st = c.createStatement()) {
                c.setAutoCommit(false);
                st.execute(QueueSql.GENERIC_PLANS);
                int n = 0;
                for (Map.Entry<String, String> statement : statements.entrySet()) {
                    String plan = genericPlan(st, "look_up_" + n++, statement.getKey(), statement.getValue());
                    for (String scan : scansNotById(plan, table, layout)) {
                        wrong.add(layout.name() + ": " + scan + " in\n" + plan);
                    }
                }
                c.rollback();
            }
        }
        assertEquals(List.of(), wrong, String.join("\n", wrong));
    }

    /**
     * Where the claim index is the table's only key ({@link Layout#DBQ_SEQ_PRIORITY_KEY}), a statement on a worker's
     * tasks and the claim's lease of the rows it picked find them in that key by their queue, their priorities (the
     * tasks' list, or the claim's range) and their ids, all index conditions: without the priorities, PostgreSQL 18
     * skipped through every level of the queue for each finish (6 index searches against 1 in a look at one by hand),
     * and PostgreSQL 15 read the queue's whole key.
     */
    @Test
    void onThePriorityKeyTheStatementsOnTasksByIdFindThemByTheirLevels() throws SQLException {
        QueueLocation queue = TestDatabase.freshTable(Layout.DBQ_SEQ_PRIORITY_KEY).queue("claims");
        String table = queue.table().name();
        TestDatabase.execute("ALTER TABLE " + table + " SET (autovacuum_enabled = off)");
        TestDatabase.execute("INSERT INTO " + table + " (queue_name, payload, priority) SELECT 'claims', repeat('x', 100),"
                + " (g - 1) / 100 % 4 FROM generate_series(1, 20000) g");
        TestDatabase.execute("VACUUM ANALYZE " + table);
        QueueSql sql = new QueueSql(queue.table());
        String tasks = "('{10101,10102}', 'claims', 10101, 10102, '{1}')"; // ids, queue, id range, priorities
        String released = "('{10101,10102}', '{1,1}', '{10101,10102}', 'claims', 10101, 10102, '{1}')";
        String fromStart = "'{" + QueueProducer.MIN_PRIORITY + "}', '{" + QueueProducer.MAX_PRIORITY + "}', '{" + Long.MIN_VALUE
                + "}', 'claims', 'claims')"; // the claim's ranges (one), queue, queue
        Map<String, String> statements = Map.of(sql.finish, tasks, sql.release, released,
                sql.claim(Delivery.of(DeliveryMode.AT_LEAST_ONCE), 100), "(30000000, " + fromStart,
                sql.claim(Delivery.of(DeliveryMode.AT_MOST_ONCE), 100), "(" + fromStart);
        try (Connection c = TestDatabase.server().connect(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute(sql.plannerSettings(false));
            int n = 0;
            for (Map.Entry<String, String> statement : statements.entrySet()) {
                String plan = genericPlan(st, "by_id_" + n++, statement.getKey(), statement.getValue());
                List<String> byIds = plan.lines().filter(line -> line.contains("(id = ANY ")).map(String::trim).toList();
                assertEquals(1, byIds.size(), plan);
                boolean claim = statement.getKey().startsWith("WITH");
                assertTrue(byIds.get(0).startsWith("Index Cond: ((queue_name = ") && (claim
                        ? byIds.get(0).contains("(priority >= ") && byIds.get(0).contains("(priority <= ")
                        : byIds.get(0).contains("(priority = ANY ")), "the key from the tasks' levels:\n" + plan);
            }
            c.rollback();
        }
    }

    /**
     * The scans of queue table {@code table} in {@code plan} that do not go straight to ids: any but one of its
     * primary key, or of a (queue_name, id) claim index, with a condition on id, an id or the range of a batch's (a
     * bitmap heap scan is judged by the index scan under it).
     */
    private static List<String> scansNotById(String plan, String table, Layout layout) {
        boolean claimIndexLeadsToId = layout.claimIndex() == Layout.ClaimIndex.QUEUE_ID
                || layout.claimIndex() == Layout.ClaimIndex.QUEUE_ID_COVERING
                || layout.claimIndex() == Layout.ClaimIndex.PRIORITY_KEY; // by skip scan over the priorities
        Pattern scan = Pattern.compile("(Scan using|Scan on) " + Pattern.quote(table) + "(_pkey|_claim_idx)?( |$)");
        List<String> wrong = new ArrayList<>();
        String[] lines = plan.split("\n");
        for (int i = 0; i < lines.length; i++) {
            Matcher m = scan.matcher(lines[i]);
            if (!m.find() || lines[i].contains("Bitmap Heap Scan")) { // its Bitmap Index Scan is checked
                continue;
            }
            String index = m.group(2);
            String condition = i + 1 < lines.length ? lines[i + 1].trim() : "";
            boolean byIndex = "_pkey".equals(index) || ("_claim_idx".equals(index) && claimIndexLeadsToId);
            boolean byId = condition.contains("(id = ") || condition.contains("(id >= "); // a task, or a batch's range
            if (!byIndex || !condition.startsWith("Index Cond: ") || !byId) {
                wrong.add(lines[i].trim() + " / " + condition);
            }
        }
        return wrong;
    }

    /**
     * The plan of {@code statement} (with JDBC placeholders) prepared as {@code name} and executed with {@code params}
     * (a parenthesised list of SQL values): the generic plan where the transaction set {@link QueueSql#GENERIC_PLANS}
     * or the claim's settings.
     */
    private static String genericPlan(Statement st, String name, String statement, String params) throws SQLException {
        st.execute("PREPARE " + name + " AS " + numbered(statement));
        return explain(st, "EXPLAIN EXECUTE " + name + params);
    }

    /** {@code statement} with its JDBC placeholders numbered, as PREPARE takes them. */
    private static String numbered(String statement) {
        StringBuilder numbered = new StringBuilder();
        int n = 0;
        for (char ch : statement.toCharArray()) {
            numbered.append(ch == '?' ? "$" + ++n : String.valueOf(ch));
        }
        return numbered.toString();
    }

    private static String explain(Statement st, String explain) throws SQLException {
        StringBuilder text = new StringBuilder();
        try (ResultSet rs = st.executeQuery(explain)) {
            while (rs.next()) {
                text.append(rs.getString(1)).append('\n');
            }
        }
        return text.toString();
    }

    /**
     * The conditions of the plan's scans of {@code index} (which leads with queue_name) that do not
     * start at the queue: each such scan reads the whole index.
     */
    private static List<String> wholeIndexScans(String plan, String index) {
        List<String> conditions = new ArrayList<>();
        String[] lines = plan.split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains("Scan using " + index + " ") || lines[i].contains("Scan on " + index + " ")) {
                String condition = i + 1 < lines.length ? lines[i + 1].trim() : "";
                if (!condition.startsWith("Index Cond: ((queue_name = ")) {
                    conditions.add(condition);
                }
            }
        }
        return conditions;
    }

    private static String lines(PreparedStatement ps) throws SQLException {
        StringBuilder text = new StringBuilder();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                text.append(rs.getString(1)).append('\n');
            }
        }
        return text.toString();
    }

    @Test
    void anExactlyOnceHandlerRunsWithTheCallersPlannerSettings() throws SQLException {
        TaskStore store = new TaskStore(queueWithTasks(Layout.DBQ_SEQ, 10));
        try (Connection c = TestDatabase.server().connect(); Statement st = c.createStatement()) {
            st.execute("SET enable_bitmapscan = off"); // the caller's session differs from the default here
            c.setAutoCommit(false);
            assertEquals(10, store.claim(c, 10, DeliveryMode.EXACTLY_ONCE, LEASE).size());
            assertEquals("off", setting(c, "enable_bitmapscan"));
            assertEquals("on", setting(c, "enable_sort"));
            assertEquals("on", setting(c, "enable_seqscan"));
            assertEquals("auto", setting(c, "plan_cache_mode"));
            c.rollback();
        }
    }

    @Test
    void anAutoCommittedClaimLeavesNoPlannerSettingBehind() throws SQLException {
        TaskStore store = new TaskStore(queueWithTasks(Layout.DBQ_SEQ, 20));
        try (Connection c = TestDatabase.server().connect()) {
            for (DeliveryMode mode : new DeliveryMode[] {DeliveryMode.AT_LEAST_ONCE, DeliveryMode.AT_MOST_ONCE}) {
                assertEquals(10, store.claim(c, 10, mode, LEASE).size());
                assertEquals("on", setting(c, "enable_sort"), mode.name());
                assertEquals("auto", setting(c, "plan_cache_mode"), mode.name());
                assertEquals("on", setting(c, "synchronous_commit"), mode.name());
            }
        }
    }

    /**
     * A lease is a HOT update only when the row's new version fits on its page: with fillfactor 70 a
     * page filled by enqueues had room for fewer than half of its rows' new versions, and the rest
     * moved to other pages with new entries in both indexes (45 % HOT under load).
     */
    @Test
    void everyLeaseOnTheSequenceLayoutsStaysOnItsPage() throws SQLException {
        for (Layout layout : List.of(Layout.DBQ_SEQ, Layout.DBQ_SEQ_PK, Layout.DBQ_SEQ_EAGER_VACUUM)) {
            QueueLocation queue = TestDatabase.freshTable(layout).queue("claims");
            String table = queue.table().name();
            TestDatabase.execute("ALTER TABLE " + table + " SET (autovacuum_enabled = off)");
            new QueueProducer(ds, queue).enqueueAll(IntStream.range(0, 1000).mapToObj(i -> "x".repeat(100)).toList());
            TestDatabase.execute("DROP TABLE IF EXISTS pages_before; CREATE TABLE pages_before AS SELECT id, (ctid::text::point)[0] AS page FROM " + table);
            TaskStore store = new TaskStore(queue);
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(true);
                for (int i = 0; i < 10; i++) {
                    assertEquals(100, store.claim(c, 100, DeliveryMode.AT_LEAST_ONCE, LEASE).size());
                }
            }
            long moved = TestDatabase.queryLong("SELECT count(*) FROM " + table + " t JOIN pages_before b USING (id)"
                    + " WHERE (t.ctid::text::point)[0] <> b.page");
            TestDatabase.execute("DROP TABLE pages_before");
            assertEquals(0, moved, layout.name() + ": leased rows that moved to another page, of 1000");
        }
    }

    @Test
    void aClaimLimitBelowOneIsRefused() {
        QueueSql sql = new QueueSql(QueueTable.of(Layout.QUEUE_TASKS_2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> sql.claim(Delivery.of(DeliveryMode.AT_LEAST_ONCE), 0));
        assertEquals("claim limit must be at least 1, was 0", e.getMessage());
    }

    private static int count(String text, String part) {
        return text.split(Pattern.quote(part), -1).length - 1;
    }

    private QueueLocation queueWithTasks(Layout layout, int count) throws SQLException {
        QueueLocation queue = TestDatabase.freshTable(layout).queue("claims");
        new QueueProducer(ds, queue).enqueueAll(IntStream.range(0, count).mapToObj(i -> "task " + i).toList());
        return queue;
    }

    /** Claims ten tasks in a transaction it leaves open on {@code c}; returns synchronous_commit inside it. */
    private String synchronousCommitAfterClaim(Connection c, DeliveryMode mode) throws SQLException {
        TaskStore store = new TaskStore(queueWithTasks(Layout.QUEUE_TASKS_2, 10));
        c.setAutoCommit(false);
        assertEquals(10, store.claim(c, 10, mode, LEASE).size());
        return synchronousCommit(c);
    }

    private static String synchronousCommit(Connection c) throws SQLException {
        return setting(c, "synchronous_commit");
    }

    private static String setting(Connection c, String name) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW " + name)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * A fresh table of {@code layout} whose statistics were taken by a vacuum that saw {@code kept} of
     * {@code rows} rows left, cutting the table's empty tail as autovacuum does ({@code truncate}) or
     * not, as the library's own vacuum does, and which then received 50,000 more, as a queue's table
     * does after its consumers caught up; autovacuum is off so that nothing takes newer statistics.
     */
    private static QueueLocation vacuumedAlmostEmpty(Layout layout, int rows, int kept, boolean truncate)
            throws SQLException {
        QueueLocation queue = TestDatabase.freshTable(layout).queue("claims");
        String table = queue.table().name();
        TestDatabase.execute("ALTER TABLE " + table + " SET (autovacuum_enabled = off)");
        TestDatabase.execute(insert(table, rows));
        TestDatabase.execute("DELETE FROM " + table + " WHERE id >= (SELECT min(id) + " + kept + " FROM " + table + ")");
        TestDatabase.execute("VACUUM (TRUNCATE " + truncate + ") " + table);
        TestDatabase.execute(insert(table, 50_000));
        return queue;
    }

    private static String insert(String table, int rows) {
        return "INSERT INTO " + table + " (queue_name, payload) SELECT 'claims', repeat('x', 100) FROM generate_series(1, "
                + rows + ")";
    }

    /** EXPLAIN of {@code claim} with the claim's parameters, after {@code settings} in the same transaction. */
    private static String plan(String settings, String claim, QueueLocation queue, DeliveryMode mode) throws SQLException {
        return plan(settings, claim, queue, mode, ClaimCursor.Floor.FROM_START);
    }

    /**
     * As {@link #plan(String, String, QueueLocation, DeliveryMode)}, the claim from {@code floor}, prepared and executed
     * as a worker's is: its plan is the generic one where {@code settings} ask for that, as the claim's do.
     */
    private static String plan(String settings, String claim, QueueLocation queue, DeliveryMode mode,
                               ClaimCursor.Floor floor) throws SQLException {
        try (Connection c = TestDatabase.server().connect(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            if (settings != null) {
                st.execute(settings);
            }
            String values = claim.indexOf('?') < 0 ? ""
                    : boundValues(c, ps -> new TaskStore(queue).bindClaim(ps, Delivery.of(mode), LEASE, floor));
            try {
                return genericPlan(st, "claim", claim, values);
            } finally {
                c.rollback();
            }
        }
    }

    @FunctionalInterface
    private interface Binding {
        void bind(PreparedStatement ps) throws SQLException;
    }

    /**
     * The values {@code binding} sets, as the parenthesised list of SQL literals that EXECUTE takes; arrays are made
     * on {@code c}.
     */
    private static String boundValues(Connection c, Binding binding) throws SQLException {
        Map<Integer, String> values = new TreeMap<>();
        PreparedStatement recorder = (PreparedStatement) Proxy.newProxyInstance(QueueStatementsTest.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection")) {
                        return c;
                    }
                    if (!method.getName().startsWith("set") || args.length != 2) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    values.put((Integer) args[0], args[1] instanceof String || args[1] instanceof Array
                            ? "'" + args[1].toString().replace("'", "''") + "'" : String.valueOf(args[1]));
                    return null;
                });
        binding.bind(recorder);
        return "(" + String.join(", ", values.values()) + ")";
    }
}
