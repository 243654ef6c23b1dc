package io.dbqueue.spring;

import io.dbqueue.log.GroupLag;
import io.dbqueue.log.LogMessage;
import io.dbqueue.log.RecordBatch;
import io.dbqueue.spring.log.DbQueueTopics;
import io.dbqueue.spring.log.TopicListener;
import io.dbqueue.spring.log.TopicListenerContainers;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Topics from properties, their producers, and TopicListener beans run as group members. */
@ExtendWith(OutputCaptureExtension.class)
class LogStarterTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** Collects what its group reads. */
    static class AuditListener implements TopicListener {
        private final String topic;
        final Set<String> payloads = ConcurrentHashMap.newKeySet();

        AuditListener(String topic) {
            this.topic = topic;
        }

        @Override
        public String topic() {
            return topic;
        }

        @Override
        public String group() {
            return "audit";
        }

        @Override
        public void handle(RecordBatch batch) throws Exception {
            batch.records().forEach(r -> payloads.add(r.payload()));
        }
    }

    @Test
    void aConfiguredTopicIsCreatedAndItsListenerBeanReadsWhatItsProducerSends() {
        String topic = StarterTestSupport.uniqueTable();
        AuditListener listener = new AuditListener(topic);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        StarterTestSupport.runner()
                .withPropertyValues("dbq.log.topics." + topic + ".partitions=3",
                        "dbq.log.topics." + topic + ".groups.audit.members=2",
                        "dbq.log.topics." + topic + ".groups.audit.poll-interval=30s")
                .withBean(MeterRegistry.class, () -> registry)
                .withBean(AuditListener.class, () -> listener)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    DbQueueTopics topics = context.getBean(DbQueueTopics.class);
                    assertThat(topics.describe(topic).partitions()).isEqualTo(3);
                    assertThat(context.getBean(TopicListenerContainers.class).members()).hasSize(2);
                    List<LogMessage> messages = IntStream.range(0, 300)
                            .mapToObj(i -> new LogMessage("key-" + i, "event-" + i)).toList();
                    topics.producer(topic).sendAll(messages);
                    // the poll interval is 30 s: the producer's notification wakes the members
                    StarterTestSupport.await(TIMEOUT, "the listener read every event",
                            () -> listener.payloads.size() == 300);
                    StarterTestSupport.await(TIMEOUT, "the group committed",
                            () -> topics.admin(topic).lag().stream().mapToLong(GroupLag::lag).sum() == 0);
                    assertThat(registry.find("dbq.log.lag").tags("topic", topic, "group", "audit").gauges()).hasSize(3);
                    // read without waiting: NaN until the lags are at hand, then the committed group's 0 on each
                    StarterTestSupport.await(TIMEOUT, "the lag gauges read", () -> registry.find("dbq.log.lag")
                            .tags("topic", topic, "group", "audit").gauges().stream().allMatch(g -> g.value() == 0));
                });
    }

    @Test
    void anExistingTopicKeepsItsPartitionsAndADifferentCountIsAWarning(CapturedOutput output) {
        String topic = StarterTestSupport.uniqueTable();
        StarterTestSupport.runner().withPropertyValues("dbq.log.topics." + topic + ".partitions=3")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output.getAll()).doesNotContain("dbq.log.topics." + topic + ".partitions is");
        StarterTestSupport.runner().withPropertyValues("dbq.log.topics." + topic + ".partitions=5")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(DbQueueTopics.class).describe(topic).partitions()).isEqualTo(3);
                    assertThat(output.getAll()).contains("dbq.log.topics." + topic + ".partitions is 5, but the topic"
                            + " exists with 3 partitions");
                });
    }

    @Test
    void aListenerOfATopicThatIsNotConfiguredFailsTheStartNamingTheProperty() {
        StarterTestSupport.runner()
                .withBean(AuditListener.class, () -> new AuditListener("not_configured"))
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause().hasMessageContaining(
                        "reads topic 'not_configured', which is not configured: add dbq.log.topics.not_configured.partitions"));
    }
}
