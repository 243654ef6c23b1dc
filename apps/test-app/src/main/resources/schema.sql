CREATE TABLE IF NOT EXISTS test_run (
    id               bigserial PRIMARY KEY,
    status           text        NOT NULL,
    message_count    bigint      NOT NULL,
    sent_count       bigint      NOT NULL DEFAULT 0,
    processed_count  bigint      NOT NULL DEFAULT 0,
    created_at       timestamptz NOT NULL DEFAULT now(),
    start_at         timestamptz,
    end_at           timestamptz,
    duration_seconds double precision,
    rps              double precision,
    latency_min_ms   double precision,
    latency_avg_ms   double precision,
    latency_p50_ms   double precision,
    latency_p95_ms   double precision,
    latency_p99_ms   double precision,
    latency_max_ms   double precision,
    failure          text
);

-- One row per processed message; times in microseconds since the epoch. A message delivered twice
-- (at-least-once) is counted once, and reports says how often it was reported.
CREATE TABLE IF NOT EXISTS test_stat (
    run_id       bigint NOT NULL,
    task_id      bigint NOT NULL,
    enqueued_us  bigint NOT NULL,
    claimed_us   bigint NOT NULL,
    completed_us bigint NOT NULL,
    reports      integer NOT NULL DEFAULT 1,
    PRIMARY KEY (run_id, task_id)
);
ALTER TABLE test_stat ADD COLUMN IF NOT EXISTS reports integer NOT NULL DEFAULT 1;
