package io.dbqueue.bench.driver.postgres;

/** A consumer thread's reusable array of enqueue stamps, so that reporting a batch allocates nothing. */
final class StampBuffer {

    private static final ThreadLocal<StampBuffer> PER_THREAD = ThreadLocal.withInitial(StampBuffer::new);

    private long[] stamps = new long[128];

    static long[] forBatch(int size) {
        StampBuffer buffer = PER_THREAD.get();
        if (buffer.stamps.length < size) {
            buffer.stamps = new long[size];
        }
        return buffer.stamps;
    }
}
