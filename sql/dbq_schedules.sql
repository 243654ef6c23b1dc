-- dbq_schedules: one row per recurring task (io.dbqueue.schedule); the process that takes a tick
-- enqueues its task and moves next_due on in one transaction, holding the row's lock
CREATE TABLE IF NOT EXISTS dbq_schedules (
    name        text PRIMARY KEY,
    queue_table text NOT NULL,
    queue_name  text NOT NULL,
    payload     text NOT NULL,
    cron        text,
    zone        text,
    interval_ms bigint,
    missed      text NOT NULL CHECK (missed IN ('RUN_ONCE', 'RUN_ALL')),
    next_due    timestamptz NOT NULL,
    paused      boolean NOT NULL DEFAULT false,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CHECK ((cron IS NOT NULL AND zone IS NOT NULL AND interval_ms IS NULL)
        OR (cron IS NULL AND zone IS NULL AND interval_ms > 0))
);
