package io.dbqueue.spring;

import io.dbqueue.log.Topic;
import io.dbqueue.queue.QueueNotifier;
import io.dbqueue.serverwatch.VacuumThresholds;
import io.dbqueue.serverwatch.VacuumWatch;
import io.dbqueue.spring.log.DbQueueLogProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.bind.Binder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;

import static org.assertj.core.api.Assertions.assertThat;

/** The configuration metadata the processor generates from the properties records, and their defaults. */
class PropertyMetadataTest {

    private static JsonNode property(String name) throws IOException {
        URL classes = DbQueueProperties.class.getProtectionDomain().getCodeSource().getLocation();
        try (InputStream in = new URL(classes, "META-INF/spring-configuration-metadata.json").openStream()) {
            for (JsonNode property : JsonMapper.builder().build().readTree(in).get("properties")) {
                if (property.get("name").asString().equals(name)) {
                    return property;
                }
            }
        }
        throw new AssertionError(name + " is not in the configuration metadata");
    }

    @ParameterizedTest
    @CsvSource({"dbq.enabled, true", "dbq.initialize-schema, embedded", "dbq.auto-startup, true",
            "dbq.shutdown-timeout, 30s", "dbq.notify-interval, 2ms", "dbq.idempotency-key-retention, 24h",
            "dbq.failure-logging, warn",
            "dbq.log.create-topics, true", "dbq.log.notify-interval, 10ms", "dbq.vacuum-watch.enabled, true",
            "dbq.vacuum-watch.interval, 30s", "dbq.vacuum-watch.horizon-age, 60s",
            "dbq.vacuum-watch.horizon-transactions, 100000", "dbq.vacuum-watch.dead-tuples, 1000",
            "dbq.endpoint.write-enabled, false", "dbq.endpoint.recent-minutes, 5"})
    void everyPropertyHasItsDefaultAndADescription(String name, String defaultValue) throws IOException {
        JsonNode property = property(name);
        assertThat(property.get("defaultValue").asString()).isEqualTo(defaultValue);
        assertThat(property.get("description").asString()).matches("[A-Z].*\\.");
    }

    @Test
    void theQueuesTopicsAndSchedulesAreDescribedMaps() throws IOException {
        assertThat(property("dbq.queues").get("type").asString()).contains("DbQueueProperties$Queue");
        assertThat(property("dbq.log.topics").get("description").asString()).startsWith("The topics, by name");
        assertThat(property("dbq.schedules").get("type").asString()).contains("DbQueueScheduleProperties$ScheduleProperties");
        assertThat(property("dbq.shards").get("type").asString()).contains("DbQueueProperties$Shard");
        assertThat(property("dbq.shards").get("description").asString()).startsWith("PostgreSQL servers");
    }

    /** Descriptions are text for an IDE, not javadoc: no {@code ...} or HTML entities left from the records' comments. */
    @Test
    void descriptionsCarryNoJavadocMarkup() throws IOException {
        URL classes = DbQueueProperties.class.getProtectionDomain().getCodeSource().getLocation();
        try (InputStream in = new URL(classes, "META-INF/spring-configuration-metadata.json").openStream()) {
            for (JsonNode property : JsonMapper.builder().build().readTree(in).get("properties")) {
                JsonNode description = property.get("description");
                if (description != null) {
                    assertThat(description.asString()).as(property.get("name").asString())
                            .doesNotContain("{@").doesNotContain("&lt;").doesNotContain("&gt;");
                }
            }
        }
    }

    @Test
    void theHealthIndicatorCanBeTurnedOffAsBootsOwn() throws IOException {
        assertThat(property("management.health.dbqueue.enabled").get("type").asString()).isEqualTo("java.lang.Boolean");
    }

    /** The records' defaults are written as text; they are the core's own (the queue's: PropertyBindingTest). */
    @Test
    void theDefaultsAreTheCoresDefaults() {
        Binder nothing = new Binder();
        VacuumWatchProperties watch = nothing.bindOrCreate("dbq.vacuum-watch", VacuumWatchProperties.class);
        assertThat(new VacuumThresholds(watch.horizonAge(), watch.horizonTransactions(), watch.deadTuples()))
                .isEqualTo(VacuumThresholds.DEFAULT);
        assertThat(watch.interval()).isEqualTo(VacuumWatch.DEFAULT_INTERVAL);
        assertThat(nothing.bindOrCreate("dbq", DbQueueProperties.class).notifyInterval())
                .isEqualTo(QueueNotifier.DEFAULT_INTERVAL);
        assertThat(nothing.bindOrCreate("dbq.log.topics.t", DbQueueLogProperties.TopicProperties.class).segmentSize())
                .isEqualTo(Topic.DEFAULT_SEGMENT_SIZE);
    }
}
