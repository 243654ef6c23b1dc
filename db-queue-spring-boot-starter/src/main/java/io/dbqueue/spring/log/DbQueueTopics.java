package io.dbqueue.spring.log;

import io.dbqueue.DbQueue;
import io.dbqueue.common.Identifiers;
import io.dbqueue.log.LogAdmin;
import io.dbqueue.log.LogSchema;
import io.dbqueue.log.Topic;
import io.dbqueue.log.TopicProducer;

import io.dbqueue.spring.InvalidQueuePropertyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import static io.dbqueue.spring.InvalidQueuePropertyException.check;

/**
 * The configured topics, created at start-up where they do not exist (unless {@code dbq.log.create-topics=false}):
 * their producers (from the {@link DbQueue}, waking the topics' readers) and admins, made once per topic.
 */
public class DbQueueTopics {

    private static final Logger LOG = LoggerFactory.getLogger(DbQueueTopics.class);

    private final DataSource dataSource;
    private final Set<String> topics;
    private final Supplier<DbQueue> door;
    private final Map<String, TopicProducer> producers = new ConcurrentHashMap<>();

    /** {@code door} is asked for only when a producer is: the door's topic retention needs the topics first. */
    public DbQueueTopics(DataSource dataSource, DbQueueLogProperties properties, Supplier<DbQueue> door) {
        this.dataSource = dataSource;
        this.topics = Set.copyOf(properties.topics().keySet());
        this.door = door;
        properties.topics().forEach((name, topic) -> ensure(name, topic, properties.createTopics()));
    }

    private void ensure(String name, DbQueueLogProperties.TopicProperties topic, boolean create) {
        try {
            Identifiers.topicName(name);
            if (!create) {
                LogSchema.describe(dataSource, name);
                return;
            }
        } catch (IllegalArgumentException e) {
            throw new InvalidQueuePropertyException("dbq.log.topics." + name + ": " + e.getMessage());
        }
        Topic wanted = check("dbq.log.topics." + name, () -> new Topic(name, topic.partitions(), topic.segmentSize()));
        Topic existing = LogSchema.createIfMissing(dataSource, wanted);
        if (existing.partitions() != wanted.partitions()) {
            // a key's partition is its hash modulo the count: changing it would break the order of a key's records
            LOG.warn("dbq.log.topics.{}.partitions is {}, but the topic exists with {} partitions, which it keeps:"
                    + " the partitions of an existing topic do not change", name, wanted.partitions(), existing.partitions());
        }
    }

    /**
     * The producer of a topic under {@code dbq.log.topics}, notifying at most once per {@code dbq.log.notify-interval}.
     * Inside a Spring transaction on the DataSource its sends join it: the records exist if and only if it commits.
     */
    public TopicProducer producer(String topic) {
        return producers.computeIfAbsent(known(topic), t -> door.get().topicProducer(t));
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
}
