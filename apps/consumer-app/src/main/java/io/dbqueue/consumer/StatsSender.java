package io.dbqueue.consumer;

import java.util.List;

/** Delivers one batch of statistics to test-app; throws if it may not have arrived. */
interface StatsSender extends AutoCloseable {

    void send(List<Stat> stats) throws Exception;

    @Override
    default void close() throws Exception {
    }
}
