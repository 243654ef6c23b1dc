package io.dbqueue.consumer;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * {@code consumer_effect}: how often each message took effect, written exactly once in the batch's
 * transaction when {@code consumer.effects} is on; more than once is a duplicate effect.
 */
final class EffectsTable {

    /** params: bigint[] task ids */
    static final String COUNT = "INSERT INTO consumer_effect (task_id, times) SELECT unnest(?::bigint[]), 1"
            + " ON CONFLICT (task_id) DO UPDATE SET times = consumer_effect.times + 1";

    private EffectsTable() {
    }

    static void create(JdbcClient jdbc) {
        jdbc.sql("CREATE TABLE IF NOT EXISTS consumer_effect (task_id bigint PRIMARY KEY, times integer NOT NULL)")
                .update();
    }
}
