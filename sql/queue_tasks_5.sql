-- queue_tasks_5: The experiment's layout 5: as 3, hash-partitioned by id into 8 partitions.
CREATE TABLE queue_tasks_5 (
    id                bigserial,
    queue_name        text NOT NULL,
    payload           text,
    created_at        timestamptz DEFAULT now(),
    next_process_at   timestamptz DEFAULT now(),
    attempt           integer DEFAULT 0,
    reenqueue_attempt integer DEFAULT 0,
    total_attempt     integer DEFAULT 0,
    headers           jsonb,
    request_id        text,
    PRIMARY KEY (id)
) PARTITION BY HASH (id);
CREATE TABLE queue_tasks_5_p0 PARTITION OF queue_tasks_5 FOR VALUES WITH (MODULUS 8, REMAINDER 0) WITH (fillfactor = 30, autovacuum_vacuum_cost_delay = 5, autovacuum_vacuum_cost_limit = 500, autovacuum_vacuum_scale_factor = 0.0001);
CREATE TABLE queue_tasks_5_p1 PARTITION OF queue_tasks_5 FOR VALUES WITH (MODULUS 8, REMAINDER 1) WITH (fillfactor = 30, autovacuum_vacuum_cost_delay = 5, autovacuum_vacuum_cost_limit = 500, autovacuum_vacuum_scale_factor = 0.0001);
CREATE TABLE queue_tasks_5_p2 PARTITION OF queue_tasks_5 FOR VALUES WITH (MODULUS 8, REMAINDER 2) WITH (fillfactor = 30, autovacuum_vacuum_cost_delay = 5, autovacuum_vacuum_cost_limit = 500, autovacuum_vacuum_scale_factor = 0.0001);
CREATE TABLE queue_tasks_5_p3 PARTITION OF queue_tasks_5 FOR VALUES WITH (MODULUS 8, REMAINDER 3) WITH (fillfactor = 30, autovacuum_vacuum_cost_delay = 5, autovacuum_vacuum_cost_limit = 500, autovacuum_vacuum_scale_factor = 0.0001);
CREATE TABLE queue_tasks_5_p4 PARTITION OF queue_tasks_5 FOR VALUES WITH (MODULUS 8, REMAINDER 4) WITH (fillfactor = 30, autovacuum_vacuum_cost_delay = 5, autovacuum_vacuum_cost_limit = 500, autovacuum_vacuum_scale_factor = 0.0001);
CREATE TABLE queue_tasks_5_p5 PARTITION OF queue_tasks_5 FOR VALUES WITH (MODULUS 8, REMAINDER 5) WITH (fillfactor = 30, autovacuum_vacuum_cost_delay = 5, autovacuum_vacuum_cost_limit = 500, autovacuum_vacuum_scale_factor = 0.0001);
CREATE TABLE queue_tasks_5_p6 PARTITION OF queue_tasks_5 FOR VALUES WITH (MODULUS 8, REMAINDER 6) WITH (fillfactor = 30, autovacuum_vacuum_cost_delay = 5, autovacuum_vacuum_cost_limit = 500, autovacuum_vacuum_scale_factor = 0.0001);
CREATE TABLE queue_tasks_5_p7 PARTITION OF queue_tasks_5 FOR VALUES WITH (MODULUS 8, REMAINDER 7) WITH (fillfactor = 30, autovacuum_vacuum_cost_delay = 5, autovacuum_vacuum_cost_limit = 500, autovacuum_vacuum_scale_factor = 0.0001);
CREATE UNIQUE INDEX queue_tasks_5_claim_idx ON queue_tasks_5 USING btree (queue_name, next_process_at, id DESC) WITH (fillfactor = 30);
-- tasks that ran out of attempts; listed, requeued and deleted through DeadLetters
CREATE TABLE queue_tasks_5_dead (
    id                bigint PRIMARY KEY,
    queue_name        text NOT NULL,
    payload           text,
    created_at        timestamptz,
    failed_at         timestamptz NOT NULL DEFAULT now(),
    attempt           integer NOT NULL,
    reenqueue_attempt integer NOT NULL,
    total_attempt     integer NOT NULL,
    last_error        text,
    headers           jsonb
);
CREATE INDEX queue_tasks_5_dead_queue_idx ON queue_tasks_5_dead (queue_name, id);
-- idempotency keys: a repeated key is answered with its first task's id until the key is purged
CREATE TABLE IF NOT EXISTS queue_tasks_5_keys (
    queue_name        text NOT NULL,
    key               text NOT NULL,
    task_id           bigint NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    request_hash      text,
    PRIMARY KEY (queue_name, key)
);
CREATE INDEX IF NOT EXISTS queue_tasks_5_keys_age_idx ON queue_tasks_5_keys (created_at);
-- queues paused by an operator (QueueAdmin.pause): their workers in every process stop claiming
CREATE TABLE IF NOT EXISTS queue_tasks_5_pauses (
    queue_name        text PRIMARY KEY,
    paused_at         timestamptz NOT NULL DEFAULT now()
);
-- rate limits (QueueLimits): each limited queue's token bucket, taken from by every consumer's claims
CREATE TABLE IF NOT EXISTS queue_tasks_5_limits (
    queue_name        text PRIMARY KEY,
    tokens            double precision NOT NULL,
    taken_at          timestamptz NOT NULL
);
-- in-flight limits (QueueLimits): the claimed tasks being handled, until answered or their lease expires
CREATE TABLE IF NOT EXISTS queue_tasks_5_in_flight (
    queue_name        text NOT NULL,
    task_id           bigint NOT NULL,
    total_attempt     integer NOT NULL,
    expires_at        timestamptz NOT NULL,
    concurrency_key   text,
    PRIMARY KEY (queue_name, task_id, total_attempt)
);
