package io.dbqueue.bench.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WorkloadFileTest {

    @Test
    void thePubSubProfileIsTheStudysWorkload() {
        Workload w = WorkloadFile.profile("pubsub");
        assertEquals(new LogLoad(4, 5, 200, 100_000, "none"), w.log());
        assertEquals(1024, w.messageSize());
        assertEquals(10, w.producers());
        assertEquals(4, w.consumers());
        assertEquals(List.of(100), w.batchSizes());
        assertEquals(List.of(new Cell("log", Cell.NO_LAYOUT, 100), new Cell("kafka", Cell.NO_LAYOUT, 100),
                new Cell("kafka-fsync", Cell.NO_LAYOUT, 100)), w.cells());
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
}
