package io.dbqueue.bench.driver.kafka;

import io.dbqueue.bench.workload.DriverName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The two drivers' flush policies: only the fsync topics flush each append. */
class KafkaDriverTest {

    @Test
    void onlyTheFsyncTopicsFlushEachAppend() {
        assertEquals(Map.of(), KafkaDriver.osFlush().topicConfig());
        assertEquals(Map.of("flush.messages", "1"), KafkaDriver.fsync().topicConfig());
        assertEquals(DriverName.KAFKA, KafkaDriver.osFlush().name());
        assertEquals(DriverName.KAFKA_FSYNC, KafkaDriver.fsync().name());
    }
}
