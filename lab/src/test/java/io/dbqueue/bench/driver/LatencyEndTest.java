package io.dbqueue.bench.driver;

import io.dbqueue.bench.workload.Workload;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Where each driver's latency ends, as the report states it. */
class LatencyEndTest {

    @Test
    void theQueueDriversEndAtTheFinishTheBrokersAtTheirReadSide() {
        assertEquals("enqueue to finish committed", LatencyEnd.of("direct"));
        assertEquals("enqueue to finish committed", LatencyEnd.of("stack"));
        assertEquals("write to read handler, before the offset commit", LatencyEnd.of("log"));
        assertEquals("send to read, offset committed", LatencyEnd.of("kafka-fsync"));
        assertEquals("send to read handler, acknowledgement sent", LatencyEnd.of("nats"));
        assertNull(LatencyEnd.of("pgbench-minimal"), "pgbench measures no latency");
    }

    @Test
    void everyDriverIsKnown() {
        Workload.DRIVERS.forEach(LatencyEnd::of);
        assertThrows(IllegalArgumentException.class, () -> LatencyEnd.of("kafka-acks-all"));
    }
}
