package io.dbqueue.spring.log;

import io.dbqueue.common.Transactions;
import io.dbqueue.log.LogAdmin;
import io.dbqueue.log.LogSchema;
import io.dbqueue.log.Topic;
import io.dbqueue.log.TopicProducer;
import javax.sql.DataSource;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The configured topics' producers (with wakeups for their readers) and admins, made once per topic. */
public class DbQueueTopics implements AutoCloseable {

    private final DataSource dataSource;
    private final Set<String> topics;
    private final Duration notifyInterval;
    private final Transactions transactions;
    private final Map<String, TopicProducer> producers = new ConcurrentHashMap<>();

    public DbQueueTopics(DataSource dataSource, Set<String> topics, Duration notifyInterval, Transactions transactions) {
        this.dataSource = dataSource;
        this.topics = Set.copyOf(topics);
        this.notifyInterval = notifyInterval;
        this.transactions = transactions;
    }

    /**
     * The producer of a topic under {@code dbq.log.topics}. Inside a Spring transaction on the
     * DataSource its sends join it: the records exist if and only if it commits.
     */
    public TopicProducer producer(String topic) {
        return producers.computeIfAbsent(known(topic),
                t -> TopicProducer.withWakeups(dataSource, t, notifyInterval, transactions));
    }

    /** The topic as created: its partitions and segment size. */
    public Topic describe(String topic) {
        return LogSchema.describe(dataSource, known(topic));
    }

    /** Lag, resets. */
    public LogAdmin admin(String topic) {
        return LogAdmin.of(dataSource, known(topic));
    }

    public Set<String> topics() {
        return topics;
    }

    private String known(String topic) {
        if (!topics.contains(topic)) {
            throw new IllegalArgumentException("unknown topic '" + topic + "': configured topics are " + topics
                    + " (dbq.log.topics.<name>)");
        }
        return topic;
    }

    @Override
    public void close() {
        producers.values().forEach(TopicProducer::close);
    }
}
