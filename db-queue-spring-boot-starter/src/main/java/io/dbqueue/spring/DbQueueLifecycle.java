package io.dbqueue.spring;

import org.springframework.context.SmartLifecycle;

/** The starter's consumers (queue workers, topic listeners): they start and stop in {@link DbQueueAutoConfiguration#PHASE}. */
public interface DbQueueLifecycle extends SmartLifecycle {

    @Override
    default int getPhase() {
        return DbQueueAutoConfiguration.PHASE;
    }
}
