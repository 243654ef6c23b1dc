package io.dbqueue.log;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;

/**
 * Chooses partitions: a keyed message goes where the CRC-32 of its UTF-8 key says (the same key,
 * the same partition, in every process and version); the unkeyed messages of one send go together
 * to the next partition in turn, so that a batch stays one append.
 */
final class Partitioner {

    private final int partitions;
    private final AtomicInteger next = new AtomicInteger();

    Partitioner(int partitions) {
        this.partitions = partitions;
    }

    static int forKey(String key, int partitions) {
        CRC32 crc = new CRC32();
        crc.update(key.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % partitions);
    }

    int nextUnkeyed() {
        return Math.floorMod(next.getAndIncrement(), partitions);
    }

    int partition(String key, int unkeyed) {
        return key == null ? unkeyed : forKey(key, partitions);
    }
}
