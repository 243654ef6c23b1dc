package io.dbqueue.bench.workload;

import io.dbqueue.queue.Wakeup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadFileTest {

    @Test
    void thePubSubProfileIsTheStudysWorkload() {
        Workload w = WorkloadFile.profile("pubsub");
        assertEquals(new LogLoad(4, 5, 200, 100_000, "none"), w.log());
        assertEquals(1024, w.messageSize());
        assertEquals(10, w.producers());
        assertEquals(4, w.consumers());
        assertEquals(List.of(100), w.batchSizes());
        assertEquals(List.of(new Cell(DriverName.LOG, Cell.NO_LAYOUT, 100, 10, 4), new Cell(DriverName.KAFKA, Cell.NO_LAYOUT, 100, 10, 4),
                new Cell(DriverName.KAFKA_FSYNC, Cell.NO_LAYOUT, 100, 10, 4)), w.cells());
    }

    @Test
    void aFileSetsSomeLogKeysAndTheRestComeFromTheDefaults(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("fanout.yaml");
        Files.writeString(file, "name: fanout\nlog:\n  groups: 10\n");
        assertEquals(new LogLoad(4, 10, 200, 100_000, "none"), WorkloadFile.read(file).log());
    }

    @Test
    void badLogKeysAreNamed(@TempDir Path dir) throws Exception {
        Path unknown = dir.resolve("unknown.yaml");
        Files.writeString(unknown, "name: x\nlog:\n  partition: 3\n");
        assertEquals(unknown + ", log: unknown key 'partition'; known keys: [groups, partitions, read_batch, retention, segment_size]",
                assertThrows(IllegalArgumentException.class, () -> WorkloadFile.read(unknown)).getMessage());
        Path retention = dir.resolve("retention.yaml");
        Files.writeString(retention, "name: x\nlog:\n  retention: forever\n");
        assertThrows(IllegalArgumentException.class, () -> WorkloadFile.read(retention));
        Path zero = dir.resolve("zero.yaml");
        Files.writeString(zero, "name: x\nlog:\n  groups: 0\n");
        assertEquals("log.groups must be at least 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> WorkloadFile.read(zero)).getMessage());
    }

    @Test
    void theClientsProfileSweepsProducersAndConsumersACellPerCombination() {
        Workload w = WorkloadFile.profile("clients");
        assertEquals(List.of(1, 2, 3), w.producerCounts());
        assertEquals(List.of(1, 2, 3), w.consumerCounts());
        List<Cell> cells = w.cells();
        assertEquals(2 * 3 * 3 * 2, cells.size(), "batch sizes x producers x consumers x drivers");
        assertEquals(List.of(new Cell(DriverName.PGBENCH_MINIMAL, "dbq_seq", 1, 1, 1), new Cell(DriverName.DIRECT, "dbq_seq", 1, 1, 1),
                new Cell(DriverName.PGBENCH_MINIMAL, "dbq_seq", 1, 1, 2)), cells.subList(0, 3));
        assertThrows(IllegalStateException.class, w::producers, "a sweep has no one value for all cells");
        Workload cell = w.forCell(cells.get(6));
        assertEquals(2, cell.producers());
        assertEquals(1, cell.consumers());
        assertEquals(List.of(new Cell(DriverName.DIRECT, "dbq_seq", 1, 1, 2)),
                cell.toBuilder().drivers(List.of(DriverName.DIRECT)).batchSizes(List.of(1)).producers(1).consumers(2).build()
                        .cells());
    }

    @Test
    void aSingleNumberOfProducersOrConsumersIsStillOneValue(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("single.yaml");
        Files.writeString(file, "name: single\nproducers: 3\nconsumers: [5]\n");
        Workload w = WorkloadFile.read(file);
        assertEquals(3, w.producers());
        assertEquals(5, w.consumers());
        assertTrue(w.cells().stream().allMatch(c -> c.producers() == 3 && c.consumers() == 5));
    }

    @Test
    void zeroConsumersInASweepIsRefusedForADriverThatCannotRunOneSideAlone(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("zero.yaml");
        Files.writeString(file, "name: zero\ndrivers: [direct, raw-sql]\nconsumers: [0, 1]\n");
        assertEquals("consumers is 0, which only the drivers direct, direct-history, pgbench, pgbench-minimal,"
                        + " pgbench-study can run (one side alone); drivers: [direct, raw-sql]",
                assertThrows(IllegalArgumentException.class, () -> WorkloadFile.read(file)).getMessage());
    }

    /**
     * Settings some drivers cannot honour are refused naming them, not applied to some cells only: a backlog filled
     * into the queue table but not into a broker (whose producers then ran a million ahead from empty), a producer
     * rate the stack's closed loop ignores, a held horizon on one of several shards.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            drivers: [direct, rabbitmq, log]\\nbacklog: 1000     | backlog is 1000, which only the drivers of one queue \
            table start from (brokers and topics start empty, and every shard would hold one): run the drivers \
            [rabbitmq, log] without it
            drivers: [direct, stack]\\nproducer_rate: 500       | producer_rate is 500, but the stack's test-app sends \
            closed loop at its own concurrency (stack_concurrency): run the drivers [stack] without it
            drivers: [direct, sharded-2]\\nhold_xmin: true      | hold_xmin holds the first server's horizon only, not \
            the other shards': run the drivers [sharded-2] without it
            """)
    void aSettingSomeDriversCannotHonourIsRefusedNamingThem(String yaml, String expected, @TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("mixed.yaml");
        Files.writeString(file, "name: mixed\n" + yaml.replace("\\n", "\n"));
        assertEquals(expected, assertThrows(IllegalArgumentException.class, () -> WorkloadFile.read(file)).getMessage());
    }

    @Test
    void theProfilesPollAndClaimTheCellsBatch() {
        Workload w = WorkloadFile.profile("quick");
        assertEquals(Wakeup.POLL, w.wakeup());
        assertEquals(0, w.consumerBatch());
        assertEquals(10, w.claimBatch(10));
        assertEquals(w.log().readBatch(), w.readBatch());
    }

    @Test
    void aFileSetsTheWakeupAndTheConsumerBatch(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("open-loop.yaml");
        Files.writeString(file, "name: open-loop\nwakeup: adaptive\nconsumer_batch: 100\n");
        Workload w = WorkloadFile.read(file);
        assertEquals(Wakeup.ADAPTIVE, w.wakeup());
        assertEquals(100, w.claimBatch(1), "a producer batch of 1 is still claimed 100 at a time");
        assertEquals(100, w.readBatch());
    }

    @Test
    void badWakeupsAndConsumerBatchesAreNamed(@TempDir Path dir) throws Exception {
        Path wakeup = dir.resolve("wakeup.yaml");
        Files.writeString(wakeup, "name: x\nwakeup: listen\n");
        assertEquals("wakeup must be one of poll, notify, adaptive, was 'listen'",
                assertThrows(IllegalArgumentException.class, () -> WorkloadFile.read(wakeup)).getMessage());
        Path batch = dir.resolve("batch.yaml");
        Files.writeString(batch, "name: x\nconsumer_batch: -1\n");
        assertThrows(IllegalArgumentException.class, () -> WorkloadFile.read(batch));
    }

    @Test
    void thePrioritiesProfileCyclesPrioritiesOnlyWhereALayoutHasThem(@TempDir Path dir) throws Exception {
        Workload w = WorkloadFile.profile("priorities");
        assertEquals(4, w.priorities());
        assertEquals(List.of("dbq_seq", "dbq_seq_pk", "dbq_seq_priority", "dbq_seq_priority_key"), w.layouts());
        Path fifoOnly = dir.resolve("fifo.yaml");
        Files.writeString(fifoOnly, "name: x\nlayouts: [dbq_seq]\npriorities: 2\n");
        assertEquals("priorities needs a layout with priorities (dbq_seq_priority, dbq_seq_priority_key), was 2 with"
                        + " layouts [dbq_seq]",
                assertThrows(IllegalArgumentException.class, () -> WorkloadFile.read(fifoOnly)).getMessage());
    }

    /** The claim alone: consumers only, on a backlog the measured messages leave a part of, on 4 priorities. */
    @Test
    void thePrioritiesDrainProfileLeavesTheConsumersAloneOnABacklogLongerThanItsWindow() {
        Workload w = WorkloadFile.profile("priorities-drain");
        assertEquals(0, w.producers());
        assertEquals(4, w.priorities());
        assertEquals(List.of(100), w.batchSizes());
        assertTrue(w.messages() > 0 && w.backlog() > w.messages(), w.messages() + " of " + w.backlog());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            name: x\\nrepeat: three          | : 'repeat' must be a whole number, was 'three'
            name: x\\nrepeat: '3'            | : 'repeat' must be a whole number, was '3'
            name: x\\nrepeat:                | : 'repeat' is missing
            name: x\\nproducers: [1, two]    | : 'producers' must list whole numbers, has 'two'
            name: x\\nlog: 5                 | : 'log' must be a mapping of keys to values, was '5'
            name: x\\nlog: {read_batch: lots} | , log: 'read_batch' must be a whole number, was 'lots'
            - name\\n- x                      | : a workload file must be a YAML mapping of keys to values
            name: x\\nspeed: 3               | : unknown key 'speed'; known keys: [backlog, batch_sizes, \
            consumer_batch, consumers, drivers, duration, hold_xmin, layouts, log, max_backlog, message_size, messages, mode, \
            name, priorities, producer_rate, producers, repeat, server_profile, stack, wakeup, warmup]
            """)
    void aBadValueNamesTheFileTheKeyAndTheRule(String yaml, String expected, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, yaml.replace("\\n", "\n"));
        assertEquals(file + expected, assertThrows(IllegalArgumentException.class, () -> WorkloadFile.read(file))
                .getMessage());
    }

    @Test
    void anUnknownDriverIsNamed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("driver.yaml");
        Files.writeString(file, "name: x\ndrivers: [direct, kafka-acks-all]\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> WorkloadFile.read(file)).getMessage()
                .startsWith("unknown driver 'kafka-acks-all'; known drivers: [direct, direct-history, raw-sql,"));
    }
}
