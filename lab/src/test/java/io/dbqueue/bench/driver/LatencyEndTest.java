package io.dbqueue.bench.driver;

import io.dbqueue.bench.workload.DriverName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Where each driver's latency ends, as the report states it. */
class LatencyEndTest {

    @Test
    void theQueueDriversEndAtTheFinishTheBrokersAtTheirReadSide() {
        assertEquals("enqueue to finish committed", LatencyEnd.of(DriverName.DIRECT));
        assertEquals("enqueue to finish committed", LatencyEnd.of(DriverName.STACK));
        assertEquals("write to read handler, before the offset commit", LatencyEnd.of(DriverName.LOG));
        assertEquals("send to read, offset committed", LatencyEnd.of(DriverName.KAFKA_FSYNC));
        assertEquals("write to Kafka acknowledgement, before the offset commit", LatencyEnd.of(DriverName.LOG_RELAY));
        assertEquals("send to read handler, acknowledgement sent", LatencyEnd.of(DriverName.NATS));
        assertNull(LatencyEnd.of(DriverName.PGBENCH_MINIMAL), "pgbench measures no latency");
    }
}
