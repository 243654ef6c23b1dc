-- queue_tasks_2: The experiment's layout 2: claim index on (queue_name, next_process_at, id desc), aggressive autovacuum.
CREATE TABLE queue_tasks_2 (
    id                bigserial,
    queue_name        text NOT NULL,
    payload           text,
    created_at        timestamptz DEFAULT now(),
    next_process_at   timestamptz DEFAULT now(),
    attempt           integer DEFAULT 0,
    reenqueue_attempt integer DEFAULT 0,
    total_attempt     integer DEFAULT 0,
    headers           jsonb,
    PRIMARY KEY (id)
) WITH (autovacuum_vacuum_cost_delay = 5, autovacuum_vacuum_cost_limit = 500, autovacuum_vacuum_scale_factor = 0.0001);
CREATE INDEX queue_tasks_2_claim_idx ON queue_tasks_2 USING btree (queue_name, next_process_at, id DESC);
-- tasks that ran out of attempts; listed, requeued and deleted through DeadLetters
CREATE TABLE queue_tasks_2_dead (
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
CREATE INDEX queue_tasks_2_dead_queue_idx ON queue_tasks_2_dead (queue_name, id);
-- idempotency keys: a repeated key is answered with its first task's id until the key is purged
CREATE TABLE IF NOT EXISTS queue_tasks_2_keys (
    queue_name        text NOT NULL,
    key               text NOT NULL,
    task_id           bigint NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    request_hash      text,
    PRIMARY KEY (queue_name, key)
);
CREATE INDEX IF NOT EXISTS queue_tasks_2_keys_age_idx ON queue_tasks_2_keys (created_at);
-- queues paused by an operator (QueueAdmin.pause): their workers in every process stop claiming
CREATE TABLE IF NOT EXISTS queue_tasks_2_pauses (
    queue_name        text PRIMARY KEY,
    paused_at         timestamptz NOT NULL DEFAULT now()
);
-- rate limits (QueueLimits): each limited queue's token bucket, taken from by every consumer's claims
CREATE TABLE IF NOT EXISTS queue_tasks_2_limits (
    queue_name        text PRIMARY KEY,
    tokens            double precision NOT NULL,
    taken_at          timestamptz NOT NULL
);
-- in-flight limits (QueueLimits): the claimed tasks being handled, until answered or their lease expires
CREATE TABLE IF NOT EXISTS queue_tasks_2_in_flight (
    queue_name        text NOT NULL,
    task_id           bigint NOT NULL,
    total_attempt     integer NOT NULL,
    expires_at        timestamptz NOT NULL,
    concurrency_key   text,
    PRIMARY KEY (queue_name, task_id, total_attempt)
);
