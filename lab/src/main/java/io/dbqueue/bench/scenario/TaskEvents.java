package io.dbqueue.bench.scenario;

import java.time.Instant;

/** What the scenario's workers report of each task, stamped in microseconds of the machine's wall clock. */
interface TaskEvents {

    /** Claimed, as its handler starts on the batch; {@code attempt} counts from 1. */
    void claimed(long id, int attempt, long micros);

    /** Attempt {@code attempt} (from 1) comes due at {@code micros}: a delayed task's first, a retry. */
    void comesDue(long id, int attempt, long micros);

    /** Finished and acknowledged. */
    void finished(long id, long micros);

    /** An attempt failed; {@code dead}: it went to the dead letters. */
    void failed(long id, boolean dead);

    /**
     * Microseconds since the epoch. The wall clock, not {@code nanoTime}, so that consumer processes
     * and the lab stamp on one clock (the same machine's); Linux gives it microsecond resolution.
     */
    static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }
}
