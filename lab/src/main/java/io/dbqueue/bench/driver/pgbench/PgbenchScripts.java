package io.dbqueue.bench.driver.pgbench;

import io.dbqueue.bench.driver.postgres.RawSqlStatements;
import io.dbqueue.bench.metrics.Payloads;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.queue.PollSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

/**
 * The pgbench scripts of the pgbench drivers: the library's own statements for a layout, batch
 * size and delivery mode ({@link #producer}, {@link #consumer}), the minimal queue's
 * ({@link #minimalProducer}, {@link #minimalConsumer}) and the published study's queue variant's
 * ({@link #studyProducer}, {@link #studyConsumer}).
 *
 * <p>The library's statements come with JDBC's {@code ?} placeholders; each is replaced by a
 * pgbench variable, recognised by where it stands: {@code queue_name = ?} and the enqueue's
 * {@code SELECT ?,} are the queue ({@code :queue}), {@code ? * interval} the lease in microseconds ({@code :lease}),
 * {@code ?::text[]} the payloads ({@code :payloads}) and {@code ?::bigint[]} the claimed ids
 * ({@code :ids}). With {@code -M prepared} a variable travels as a bound parameter, as from JDBC;
 * with {@code -M simple} pgbench pastes its value into the text, so the text values are quoted.
 *
 * <p>Every claim is wrapped as {@code WITH c AS (<claim>) SELECT count(*) AS n, array_agg(id) AS ids,
 * array_agg(payload) AS payloads FROM c} and its one row stored with {@code \gset} (pgbench keeps
 * one row, and the finish needs the ids): the payloads still travel to the client, as to the
 * library's handler. Consumers then wait as the library's workers do ({@link PollSettings#DEFAULT}):
 * {@value #NO_TASK_WAIT_MS} ms after an empty claim, {@value #PARTIAL_WAIT_MS} ms after a partial
 * one, so that an idle consumer does not take the CPU the producers need.
 *
 * <p>A claim that needs its settings in the same transaction can run two ways. In
 * {@link QueryMode#SIMPLE} the settings and the claim travel as one {@code \;} compound, one Query
 * message and one implicit transaction, as the library sends them, but every statement is parsed
 * and planned anew where the library runs a cached plan. {@link QueryMode#PREPARED} plans once but
 * refuses compounds, so it needs an explicit {@code BEGIN ... COMMIT} around them: three more round
 * trips per claim that the library does not make. Measured by hand on PostgreSQL 15 with pgbench 15
 * (docs/bench.md, "pgbench drivers"), prepared was faster on a partitioned table (simple planned the
 * claim over every partition on each call: 13-30 % slower at batch 1 and 10) and simple on a plain
 * one (12-26 % faster at batch 1, a tie at 10 and 100). Being a ceiling, each runs the faster way
 * ({@link #compoundMode}). A script that needs no compound (no claim settings) always runs prepared.
 */
final class PgbenchScripts {

    /** How pgbench sends a script's statements ({@code -M}). */
    enum QueryMode {
        SIMPLE, PREPARED;

        String flag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A script and the protocol it must run with. */
    record Script(String text, QueryMode mode) {
    }

    /**
     * The library's statements for one table and batch size, as {@link RawSqlStatements} writes
     * them; {@code claimSettings}, {@code restoreSettings} and {@code finishSettings} are null or
     * empty when the table or mode needs none.
     */
    record Statements(String enqueue, String claimSettings, String claim, String claimLocked, String claimAndDelete,
                      String restoreSettings, String finishSettings, String finish, boolean genericPlansBeforeFinish,
                      boolean partitioned) {
    }

    /** The faster protocol for a consumer whose claim needs its settings in its transaction; see the class comment. */
    static QueryMode compoundMode(boolean partitioned) {
        return partitioned ? QueryMode.PREPARED : QueryMode.SIMPLE;
    }

    static final String QUEUE = "queue";
    static final String LEASE = "lease";
    static final String PAYLOADS = "payloads";
    static final String IDS = "ids";
    /** Set to 0 on the command line ({@code -D ready=0}): a producer builds its payloads once, then sets it to 1. */
    static final String READY = "ready";

    static final long NO_TASK_WAIT_MS = 100;
    static final long PARTIAL_WAIT_MS = 10;
    static {
        if (PollSettings.DEFAULT.noTaskTimeout().toMillis() != NO_TASK_WAIT_MS
                || PollSettings.DEFAULT.betweenTaskTimeout().toMillis() != PARTIAL_WAIT_MS) {
            throw new IllegalStateException("PgbenchScripts' waits no longer match PollSettings.DEFAULT");
        }
    }

    /**
     * A queue of pgbench's own, not the library's: the table the load runs on, every table to create
     * and drop, and its scripts (producer: batch size and message size; consumer: batch size).
     */
    record OwnQueue(String table, List<String> tables, List<String> ddl, BiFunction<Integer, Integer, Script> producer,
                    IntFunction<Script> consumer) {

        Script producer(int batchSize, int messageSize) {
            return producer.apply(batchSize, messageSize);
        }

        Script consumer(int batchSize) {
            return consumer.apply(batchSize);
        }
    }

    static final String MINIMAL_TABLE = "pgbench_minimal_queue";
    static final OwnQueue MINIMAL_QUEUE = new OwnQueue(MINIMAL_TABLE, List.of(MINIMAL_TABLE), List.of(
            "CREATE TABLE " + MINIMAL_TABLE + " (id bigserial primary key, payload text, created_at timestamptz default now())"),
            PgbenchScripts::minimalProducer, PgbenchScripts::minimalConsumer);

    static final String STUDY_TABLE = "pgbench_study_queue";
    static final String STUDY_ARCHIVE = "pgbench_study_archive";
    static final OwnQueue STUDY_QUEUE = new OwnQueue(STUDY_TABLE, List.of(STUDY_TABLE, STUDY_ARCHIVE), List.of(
            "CREATE TABLE " + STUDY_TABLE + " (id bigserial primary key, payload text, created_at timestamptz default now())",
            "CREATE TABLE " + STUDY_ARCHIVE + " (id bigint primary key, payload text, created_at timestamptz,"
                    + " archived_at timestamptz default now())"),
            PgbenchScripts::studyProducer, batchSize -> studyConsumer());

    private static final String GENERIC_PLANS = "SET LOCAL plan_cache_mode = force_generic_plan";

    private PgbenchScripts() {
    }

    /** The library's enqueue of a batch of {@code messageSize}-byte payloads, built once per client. */
    static Script producer(Statements sql, int batchSize, int messageSize) {
        String text = payloadsOnce(batchSize, messageSize)
                + bind(sql.enqueue(), QueryMode.PREPARED) + ";\n";
        return new Script(text, QueryMode.PREPARED);
    }

    /** A consumer of the library's statements in {@code mode}: claim, finish as the mode says, wait as the library. */
    static Script consumer(Statements sql, DeliveryMode mode, int batchSize) {
        boolean compound = has(sql.claimSettings()) || (mode == DeliveryMode.EXACTLY_ONCE && has(sql.restoreSettings()));
        return consumer(sql, mode, batchSize, compound ? compoundMode(sql.partitioned()) : QueryMode.PREPARED);
    }

    /** A consumer as {@link #consumer(Statements, DeliveryMode, int)}, in the given protocol. */
    static Script consumer(Statements sql, DeliveryMode mode, int batchSize, QueryMode qm) {
        List<String> lines = new ArrayList<>();
        String settings = has(sql.claimSettings()) ? bind(sql.claimSettings(), qm) : null;
        String finish = bind(sql.finish(), qm);
        switch (mode) {
            case AT_LEAST_ONCE, AT_MOST_ONCE -> {
                String claim = wrap(bind(mode == DeliveryMode.AT_LEAST_ONCE ? sql.claim() : sql.claimAndDelete(), qm));
                // one Query message in simple mode: the settings hold for the claim's planning and commit only
                afterSettings(lines, settings, claim + " \\gset", qm);
                if (mode == DeliveryMode.AT_LEAST_ONCE) {
                    // the finish is its own transaction after its settings, as the library's acknowledgement
                    lines.add("\\if :n > 0");
                    String finishSettings = has(sql.finishSettings()) ? bind(sql.finishSettings(), qm) : null;
                    afterSettings(lines, finishSettings, finish + ";", qm);
                    lines.add("\\endif");
                }
            }
            case EXACTLY_ONCE -> {
                String claim = wrap(bind(sql.claimLocked(), qm));
                String restore = has(sql.restoreSettings()) ? bind(sql.restoreSettings(), qm) : null;
                String generic = sql.genericPlansBeforeFinish() ? GENERIC_PLANS : null;
                if (qm == QueryMode.SIMPLE) {
                    // claim (and restore) in one message, the finish and the commit in a second; \aset keeps the
                    // columns of every statement of the compound, so the claim's n and ids survive the restore
                    lines.add(join("BEGIN", settings, claim, restore) + (restore == null ? " \\gset" : " \\aset"));
                    lines.add("\\if :n > 0");
                    lines.add(join(generic, finish, "COMMIT") + ";");
                    lines.add("\\else");
                    lines.add("COMMIT;");
                    lines.add("\\endif");
                } else {
                    lines.add("BEGIN;");
                    if (settings != null) {
                        lines.add(settings + ";");
                    }
                    lines.add(claim + " \\gset");
                    if (restore != null) {
                        lines.add(restore + ";");
                    }
                    lines.add("\\if :n > 0");
                    if (generic != null) {
                        lines.add(generic + ";");
                    }
                    lines.add(finish + ";");
                    lines.add("\\endif");
                    lines.add("COMMIT;");
                }
            }
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        waits(lines, batchSize);
        return new Script(String.join("\n", lines) + "\n", qm);
    }

    /**
     * Adds {@code statement} (ending in its terminator or meta-command) in one transaction after
     * {@code settings}: alone when there are none, as one {@code \;} compound in simple mode, and
     * inside {@code BEGIN ... COMMIT} in prepared mode, which refuses compounds.
     */
    private static void afterSettings(List<String> lines, String settings, String statement, QueryMode qm) {
        if (settings == null) {
            lines.add(statement);
        } else if (qm == QueryMode.SIMPLE) {
            lines.add(settings + " \\; " + statement);
        } else {
            lines.add("BEGIN;");
            lines.add(settings + ";");
            lines.add(statement);
            lines.add("COMMIT;");
        }
    }

    /** The minimal queue's producer: a batch of {@code messageSize}-byte rows built by the server. */
    static Script minimalProducer(int batchSize, int messageSize) {
        return new Script("INSERT INTO " + MINIMAL_TABLE + " (payload) SELECT " + payload(messageSize)
                + " FROM generate_series(1, " + batchSize + ");\n", QueryMode.PREPARED);
    }

    /**
     * A {@code messageSize}-character payload as an SQL text literal, filled as the bench's own messages
     * are ({@link Payloads}): repeated characters would be compressed by TOAST to a fraction of the size.
     */
    static String payload(int messageSize) {
        return new Payloads(messageSize).unmeasuredSql() + "::text"; // typed, for array_agg
    }

    /** The minimal queue's consumer: delete a batch from the head, skipping locked rows, and return it. */
    static Script minimalConsumer(int batchSize) {
        List<String> lines = new ArrayList<>();
        lines.add(wrap("DELETE FROM " + MINIMAL_TABLE + " WHERE id = ANY(ARRAY(SELECT id FROM " + MINIMAL_TABLE
                + " ORDER BY id FOR UPDATE SKIP LOCKED LIMIT " + batchSize + ")) RETURNING id, payload, created_at")
                + " \\gset");
        waits(lines, batchSize);
        return new Script(String.join("\n", lines) + "\n", QueryMode.PREPARED);
    }

    /**
     * The study's producer: {@code batchSize} rows, one {@code INSERT} and one transaction each, as
     * the study enqueued (pgbench's transaction, the unit of {@code -R}, is the script's batch).
     */
    static Script studyProducer(int batchSize, int messageSize) {
        String insert = "INSERT INTO " + STUDY_TABLE + " (payload) VALUES (" + payload(messageSize) + ");\n";
        return new Script(insert.repeat(batchSize), QueryMode.PREPARED);
    }

    /**
     * The study's consumer: claims one row, deletes it and inserts it into the archive, in one
     * statement (the study's claim, delete and insert, without its round trips), whatever the batch size.
     */
    static Script studyConsumer() {
        List<String> lines = new ArrayList<>();
        lines.add("WITH claimed AS (DELETE FROM " + STUDY_TABLE + " WHERE id = (SELECT id FROM " + STUDY_TABLE
                + " ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1) RETURNING id, payload, created_at),"
                + " c AS (INSERT INTO " + STUDY_ARCHIVE + " (id, payload, created_at) SELECT id, payload, created_at"
                + " FROM claimed RETURNING id, payload)" + summary() + " \\gset");
        waits(lines, 1);
        return new Script(String.join("\n", lines) + "\n", QueryMode.PREPARED);
    }

    /** The claim's one-row summary for {@code \gset}: how many, their ids, and their payloads. */
    private static String wrap(String claim) {
        return "WITH c AS (" + claim + ")" + summary();
    }

    private static String summary() {
        return " SELECT count(*) AS n, array_agg(id) AS " + IDS + ", array_agg(payload) AS " + PAYLOADS + " FROM c";
    }

    /** A producer's payloads, built by the server on the client's first transaction and kept in a variable. */
    private static String payloadsOnce(int batchSize, int messageSize) {
        return "\\if :" + READY + " = 0\n"
                + "SELECT array_agg(" + payload(messageSize) + ") AS " + PAYLOADS + ", 1 AS " + READY
                + " FROM generate_series(1, " + batchSize + ") \\gset\n"
                + "\\endif\n";
    }

    private static void waits(List<String> lines, int batchSize) {
        lines.add("\\if :n = 0");
        lines.add("\\sleep " + NO_TASK_WAIT_MS + " ms");
        if (batchSize > 1) {
            lines.add("\\elif :n < " + batchSize);
            lines.add("\\sleep " + PARTIAL_WAIT_MS + " ms");
        }
        lines.add("\\endif");
    }

    private static String join(String... statements) {
        List<String> present = new ArrayList<>();
        for (String s : statements) {
            if (s != null) {
                present.add(s);
            }
        }
        return String.join(" \\; ", present);
    }

    private static boolean has(String statement) {
        return statement != null && !statement.isBlank();
    }

    /**
     * {@code sql} with each JDBC placeholder replaced by its pgbench variable: bare in prepared mode
     * (a bound parameter), quoted where it is text in simple mode (pgbench pastes the value in).
     */
    static String bind(String sql, QueryMode mode) {
        StringBuilder out = new StringBuilder(sql.length() + 32);
        boolean quoted = false;
        for (int i = 0; i < sql.length(); i++) {
            char ch = sql.charAt(i);
            if (ch == '\'') {
                quoted = !quoted;
            }
            if (ch != '?' || quoted) {
                if (ch == ':' && !quoted && i + 1 < sql.length() && sql.charAt(i + 1) != ':'
                        && (i == 0 || sql.charAt(i - 1) != ':')) {
                    throw new IllegalArgumentException("a lone ':' would be read as a pgbench variable: " + sql);
                }
                out.append(ch);
                continue;
            }
            String before = sql.substring(0, i).stripTrailing();
            String after = sql.substring(i + 1);
            String variable;
            boolean text;
            if (after.startsWith("::text[]")) {
                variable = PAYLOADS;
                text = true;
            } else if (after.startsWith("::bigint[]")) {
                variable = IDS;
                text = true;
            } else if (after.startsWith(" * interval")) {
                variable = LEASE;
                text = false;
            } else if (before.endsWith("queue_name =") || before.endsWith("SELECT") && after.startsWith(",")) {
                variable = QUEUE;
                text = true;
            } else {
                throw new IllegalArgumentException("no pgbench variable for the parameter at " + i + " of: " + sql);
            }
            out.append(mode == QueryMode.SIMPLE && text ? "':" + variable + "'" : ":" + variable);
        }
        return out.toString();
    }
}
