package io.dbqueue.maintenance;

import io.dbqueue.Await;
import io.dbqueue.CheckedDataSource;
import io.dbqueue.TestDatabase;
import io.dbqueue.log.LogMessage;
import io.dbqueue.log.LogSchema;
import io.dbqueue.log.Topic;
import io.dbqueue.log.TopicProducer;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/** The door's maintenance jobs go on through a round that cannot run. */
class MaintenanceTest {

    private static final String TOPIC = "retained_once_created";

    /**
     * A topic's retention whose database is down at the start waits for it; when the database is back but the topic
     * is not there yet (a shard restored without it), each round logs that and tries again until it is. Thrown out
     * of its job, that failure cancelled the job without a word, and the topic was never trimmed.
     */
    @Test
    void aRetentionThatCannotStartTriesAgainEachRound() throws Exception {
        DataSource ds = TestDatabase.dataSource();
        LogSchema.drop(ds, TOPIC);
        AtomicBoolean down = new AtomicBoolean(true);
        AtomicInteger looks = new AtomicInteger(); // connections asked for while up: each round's look for the topic
        try (Maintenance maintenance = new Maintenance(downFirst(ds, down, looks), Duration.ofDays(1))) {
            maintenance.retain(TOPIC, new RetentionPolicy(null, 1, false), Duration.ofMillis(50));
            down.set(false);
            Await.until(Duration.ofSeconds(30), "rounds that find no topic", () -> looks.get() >= 3);
            LogSchema.create(ds, new Topic(TOPIC, 1, 1_000));
            TopicProducer producer = TopicProducer.create(ds, TOPIC);
            producer.sendAll(IntStream.range(0, 2_500).mapToObj(i -> new LogMessage("k", "m" + i)).toList());
            Await.until(Duration.ofSeconds(30), "the complete segments dropped",
                    () -> TestDatabase.queryLong("SELECT count(*) FROM pg_class WHERE relname IN ('" + TOPIC + "_p0_s0', '"
                            + TOPIC + "_p0_s1')") == 0);
        }
    }

    /** {@code target}, whose connections fail as a server's that is down while {@code down} holds, counted after. */
    private static DataSource downFirst(DataSource target, AtomicBoolean down, AtomicInteger looks) {
        return CheckedDataSource.of(target, () -> {
            if (down.get()) {
                throw new SQLTransientConnectionException("the server is down");
            }
            looks.incrementAndGet();
        });
    }
}
