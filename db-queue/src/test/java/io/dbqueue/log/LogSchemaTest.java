package io.dbqueue.log;

import io.dbqueue.TestDatabase;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
