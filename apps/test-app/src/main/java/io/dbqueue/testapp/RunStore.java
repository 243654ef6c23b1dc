package io.dbqueue.testapp;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Runs and their message statistics in the results database. */
@Repository
public class RunStore {

    private static final String COLUMNS = "id, status, message_count, sent_count, processed_count, start_at, end_at,"
            + " duration_seconds, rps, latency_min_ms, latency_avg_ms, latency_p50_ms, latency_p95_ms, latency_p99_ms,"
            + " latency_max_ms, failure";

    private static final String LATENCY_MS = "(completed_us - enqueued_us) / 1000.0";

    private final JdbcClient jdbc;

    public RunStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public long create(long messageCount) {
        return jdbc.sql("INSERT INTO test_run (status, message_count) VALUES ('RUNNING', ?) RETURNING id")
                .param(messageCount).query(Long.class).single();
    }

    /** Runs left RUNNING by a test-app that stopped: nothing will ever complete them. */
    public int failAbandoned() {
        return jdbc.sql("UPDATE test_run SET status = 'FAILED', failure = 'test-app stopped while the run was in progress'"
                + " WHERE status = 'RUNNING'").update();
    }

    /**
     * Stores one batch of statistics of run {@code runId} in one statement and returns how many
     * were new. A message reported twice is stored once, with the first report's times, and counted
     * in {@code reports} (at least once delivers a message again after a consumer crash).
     */
    public int insertStats(long runId, List<Stat> stats) {
        long[] taskIds = new long[stats.size()];
        long[] enqueued = new long[stats.size()];
        long[] claimed = new long[stats.size()];
        long[] completed = new long[stats.size()];
        for (int i = 0; i < stats.size(); i++) {
            Stat s = stats.get(i);
            taskIds[i] = s.taskId();
            enqueued[i] = s.enqueuedAtMicros();
            claimed[i] = s.claimedAtMicros();
            completed[i] = s.completedAtMicros();
        }
        // Grouped by task: one statement may not touch a row twice. xmax = 0 marks the rows this statement inserted.
        return jdbc.sql("WITH stored AS (INSERT INTO test_stat (run_id, task_id, enqueued_us, claimed_us, completed_us,"
                        + " reports) SELECT ?, s.task_id, min(s.e), min(s.c), min(s.d), count(*)"
                        + " FROM unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[]) AS s(task_id, e, c, d)"
                        + " GROUP BY s.task_id"
                        + " ON CONFLICT (run_id, task_id) DO UPDATE SET reports = test_stat.reports + EXCLUDED.reports"
                        + " RETURNING xmax = 0 AS inserted)"
                        + " SELECT count(*) FILTER (WHERE inserted) FROM stored")
                .param(runId).param(taskIds).param(enqueued).param(claimed).param(completed)
                .query(Integer.class).single();
    }

    /** Marks the run complete and stores its figures, computed from its statistics. */
    public void complete(long runId, long sentCount) {
        jdbc.sql("UPDATE test_run r SET status = 'COMPLETE', sent_count = ?, processed_count = s.n,"
                        + " start_at = to_timestamp(s.first_us / 1e6), end_at = to_timestamp(s.last_us / 1e6),"
                        + " duration_seconds = (s.last_us - s.first_us) / 1e6,"
                        + " rps = s.n / greatest((s.last_us - s.first_us) / 1e6, 1e-6),"
                        + " latency_min_ms = s.min, latency_avg_ms = s.avg, latency_p50_ms = s.p50,"
                        + " latency_p95_ms = s.p95, latency_p99_ms = s.p99, latency_max_ms = s.max"
                        + " FROM (SELECT count(*) AS n, min(enqueued_us) AS first_us, max(completed_us) AS last_us,"
                        + " min(l) AS min, avg(l) AS avg, percentile_cont(0.5) WITHIN GROUP (ORDER BY l) AS p50,"
                        + " percentile_cont(0.95) WITHIN GROUP (ORDER BY l) AS p95,"
                        + " percentile_cont(0.99) WITHIN GROUP (ORDER BY l) AS p99, max(l) AS max"
                        + " FROM (SELECT enqueued_us, completed_us, " + LATENCY_MS + " AS l FROM test_stat"
                        + " WHERE run_id = ?) t) s WHERE r.id = ?")
                .param(sentCount).param(runId).param(runId).update();
    }

    public void fail(long runId, long sentCount, long processedCount, String reason) {
        jdbc.sql("UPDATE test_run SET status = 'FAILED', sent_count = ?, processed_count = ?, failure = ? WHERE id = ?")
                .param(sentCount).param(processedCount).param(reason).param(runId).update();
    }

    public Optional<RunView> find(long runId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM test_run WHERE id = ?").param(runId).query(RUN).optional();
    }

    public List<RunView> list() {
        return jdbc.sql("SELECT " + COLUMNS + " FROM test_run ORDER BY id").query(RUN).list();
    }

    public List<RunView.SecondCount> throughput(long runId) {
        // The run's start as a scalar subquery: evaluated once (an InitPlan), never once per row.
        return jdbc.sql("SELECT ((completed_us - (SELECT min(enqueued_us) FROM test_stat WHERE run_id = ?)) / 1000000)::bigint"
                        + " AS second, count(*) AS n FROM test_stat WHERE run_id = ? GROUP BY 1 ORDER BY 1")
                .param(runId).param(runId)
                .query((rs, i) -> new RunView.SecondCount(rs.getLong("second"), rs.getLong("n")))
                .list();
    }

    public List<RunView.LatencyBucket> latencyBuckets(long runId, int bucketSize) {
        return jdbc.sql("SELECT max(n) AS up_to, min(l) AS min, avg(l) AS avg, max(l) AS max,"
                        + " percentile_cont(0.95) WITHIN GROUP (ORDER BY l) AS p95,"
                        + " percentile_cont(0.99) WITHIN GROUP (ORDER BY l) AS p99"
                        + " FROM (SELECT row_number() OVER (ORDER BY completed_us, task_id) AS n, " + LATENCY_MS + " AS l"
                        + " FROM test_stat WHERE run_id = ?) t GROUP BY (n - 1) / ? ORDER BY 1")
                .param(runId).param(bucketSize)
                .query((rs, i) -> new RunView.LatencyBucket(rs.getLong("up_to"), rs.getDouble("min"),
                        rs.getDouble("avg"), rs.getDouble("max"), rs.getDouble("p95"), rs.getDouble("p99")))
                .list();
    }

    private static final RowMapper<RunView> RUN = (rs, i) -> new RunView(rs.getLong("id"),
            RunStatus.valueOf(rs.getString("status")), rs.getLong("message_count"), rs.getLong("sent_count"),
            rs.getLong("processed_count"), instant(rs.getTimestamp("start_at")), instant(rs.getTimestamp("end_at")),
            nullable(rs, "duration_seconds"), nullable(rs, "rps"), latency(rs), rs.getString("failure"), null, null);

    private static RunView.Latency latency(ResultSet rs) throws SQLException {
        Double min = nullable(rs, "latency_min_ms");
        if (min == null) {
            return null;
        }
        return new RunView.Latency(min, rs.getDouble("latency_avg_ms"), rs.getDouble("latency_p50_ms"),
                rs.getDouble("latency_p95_ms"), rs.getDouble("latency_p99_ms"), rs.getDouble("latency_max_ms"));
    }

    private static Double nullable(ResultSet rs, String column) throws SQLException {
        double value = rs.getDouble(column);
        return rs.wasNull() ? null : value;
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
