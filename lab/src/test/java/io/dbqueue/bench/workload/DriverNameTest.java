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
    void anUnknownNameListsTheKnownOnes() {
        assertEquals("unknown driver 'kafka-acks-all'; known drivers: [direct, direct-history, raw-sql, pgbench,"
                        + " pgbench-minimal, pgbench-study, stack, rabbitmq, nats, log, kafka, kafka-fsync,"
                        + " rabbitmq-quorum, log-relay]",
                assertThrows(IllegalArgumentException.class, () -> DriverName.of("kafka-acks-all")).getMessage());
    }
}
