-- log topic events: 4 partitions, segments of 100000 offsets (LogSchema creates more as appends need them)
CREATE TABLE IF NOT EXISTS dbq_topics (
    topic_name   text PRIMARY KEY,
    partitions   integer NOT NULL,
    segment_size bigint NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
INSERT INTO dbq_topics (topic_name, partitions, segment_size) VALUES ('events', 4, 100000);
CREATE TABLE events_partitions (
    partition   integer PRIMARY KEY,
    next_offset bigint NOT NULL DEFAULT 0,
    low_offset  bigint NOT NULL DEFAULT 0
);
INSERT INTO events_partitions (partition) SELECT generate_series(0, 3);
CREATE TABLE events_groups (
    group_name       text NOT NULL,
    partition        integer NOT NULL,
    committed_offset bigint NOT NULL,
    owner            text,
    lease_until      timestamptz,
    PRIMARY KEY (group_name, partition)
);
CREATE TABLE events_members (
    group_name  text NOT NULL,
    member_id   text NOT NULL,
    alive_until timestamptz NOT NULL,
    PRIMARY KEY (group_name, member_id)
);
CREATE TABLE events_p0 (
    log_offset  bigint NOT NULL,
    msg_key     text,
    payload     text NOT NULL,
    appended_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (log_offset)
) PARTITION BY RANGE (log_offset);
CREATE INDEX events_p0_appended_at_idx ON events_p0 USING brin (appended_at);
CREATE TABLE events_p1 (
    log_offset  bigint NOT NULL,
    msg_key     text,
    payload     text NOT NULL,
    appended_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (log_offset)
) PARTITION BY RANGE (log_offset);
CREATE INDEX events_p1_appended_at_idx ON events_p1 USING brin (appended_at);
CREATE TABLE events_p2 (
    log_offset  bigint NOT NULL,
    msg_key     text,
    payload     text NOT NULL,
    appended_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (log_offset)
) PARTITION BY RANGE (log_offset);
CREATE INDEX events_p2_appended_at_idx ON events_p2 USING brin (appended_at);
CREATE TABLE events_p3 (
    log_offset  bigint NOT NULL,
    msg_key     text,
    payload     text NOT NULL,
    appended_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (log_offset)
) PARTITION BY RANGE (log_offset);
CREATE INDEX events_p3_appended_at_idx ON events_p3 USING brin (appended_at);
CREATE TABLE IF NOT EXISTS events_p0_s0 PARTITION OF events_p0 FOR VALUES FROM (0) TO (100000);
CREATE TABLE IF NOT EXISTS events_p0_s1 PARTITION OF events_p0 FOR VALUES FROM (100000) TO (200000);
CREATE TABLE IF NOT EXISTS events_p1_s0 PARTITION OF events_p1 FOR VALUES FROM (0) TO (100000);
CREATE TABLE IF NOT EXISTS events_p1_s1 PARTITION OF events_p1 FOR VALUES FROM (100000) TO (200000);
CREATE TABLE IF NOT EXISTS events_p2_s0 PARTITION OF events_p2 FOR VALUES FROM (0) TO (100000);
CREATE TABLE IF NOT EXISTS events_p2_s1 PARTITION OF events_p2 FOR VALUES FROM (100000) TO (200000);
CREATE TABLE IF NOT EXISTS events_p3_s0 PARTITION OF events_p3 FOR VALUES FROM (0) TO (100000);
CREATE TABLE IF NOT EXISTS events_p3_s1 PARTITION OF events_p3 FOR VALUES FROM (100000) TO (200000);
