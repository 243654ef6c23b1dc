package io.dbqueue.bench.workload;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DriverNameTest {

    @Test
    void aDriverIsReadBackFromTheNameItIsWrittenAs() {
        for (DriverName driver : DriverName.all()) {
            assertEquals(driver, DriverName.of(driver.toString()));
        }
        assertEquals("kafka-fsync", DriverName.KAFKA_FSYNC.toString());
    }

    @Test
    void aShardedDriverNamesItsShardCount() {
        assertEquals(DriverName.SHARDED_3, DriverName.sharded(3));
        assertEquals(3, DriverName.of("sharded-3").shards());
        assertEquals(0, DriverName.DIRECT.shards());
        assertEquals("shards must be between 1 and 4, was 5",
                assertThrows(IllegalArgumentException.class, () -> DriverName.sharded(5)).getMessage());
    }

    @Test
    void anUnknownNameListsTheKnownOnes() {
        assertEquals("unknown driver 'kafka-acks-all'; known drivers: [direct, direct-history, raw-sql, pgbench,"
                        + " pgbench-minimal, pgbench-study, stack, rabbitmq, nats, log, kafka, kafka-fsync,"
                        + " rabbitmq-quorum, log-relay, sharded-1, sharded-2, sharded-3, sharded-4]",
                assertThrows(IllegalArgumentException.class, () -> DriverName.of("kafka-acks-all")).getMessage());
    }
}
