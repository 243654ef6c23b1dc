package io.dbqueue.consumer;

import java.util.List;

/** Delivers one batch of statistics to test-app; throws if it may not have arrived. */
interface StatsSender extends AutoCloseable {

    /** Throws {@link StatsRefusedException} when test-app refused the batch for good: sent again, it would be too. */
    void send(List<Stat> stats) throws Exception;

    @Override
    default void close() throws Exception {
    }
}
