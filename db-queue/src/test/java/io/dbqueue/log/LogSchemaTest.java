package io.dbqueue.log;

import io.dbqueue.TestDatabase;
import io.dbqueue.common.QueueException;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogSchemaTest {

    private static final String TOPIC = "log_schema_if_missing";

    private final DataSource dataSource = TestDatabase.dataSource();

    @Test
    void createIfMissingCreatesAMissingTopicAndKeepsAnExistingOneAsItIs() {
        LogSchema.drop(dataSource, TOPIC);
        assertThrows(IllegalArgumentException.class, () -> LogSchema.describe(dataSource, TOPIC));

        assertEquals(new Topic(TOPIC, 3, 1_000), LogSchema.createIfMissing(dataSource, new Topic(TOPIC, 3, 1_000)));
        assertEquals(new Topic(TOPIC, 3, 1_000), LogSchema.describe(dataSource, TOPIC));

        // a second start with other settings finds the topic and does not change it
        assertEquals(new Topic(TOPIC, 3, 1_000), LogSchema.createIfMissing(dataSource, new Topic(TOPIC, 5, 2_000)));
        assertEquals(new Topic(TOPIC, 3, 1_000), LogSchema.describe(dataSource, TOPIC));
        LogSchema.drop(dataSource, TOPIC);
    }

    /** A creation that fails with no other instance's topic behind it says why, where it said "unknown topic". */
    @Test
    void aCreationThatFailsOnItsOwnSaysWhy() throws Exception {
        String topic = TOPIC + "_blocked";
        LogSchema.drop(dataSource, topic);
        TestDatabase.execute("CREATE TABLE " + topic + "_partitions (x int)");
        try {
            QueueException e = assertThrows(QueueException.class,
                    () -> LogSchema.createIfMissing(dataSource, Topic.of(topic, 1)));
            assertTrue(e.getCause().getMessage().contains(topic + "_partitions"), e.getCause().getMessage());
        } finally {
            TestDatabase.execute("DROP TABLE " + topic + "_partitions");
        }
    }
}
