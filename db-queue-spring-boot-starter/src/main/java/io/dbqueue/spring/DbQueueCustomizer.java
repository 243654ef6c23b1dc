package io.dbqueue.spring;

import io.dbqueue.DbQueue;

/** Adds to the {@link DbQueue} the starter builds, before it is built, as Spring Boot's customizer beans do. */
@FunctionalInterface
public interface DbQueueCustomizer {

    void customize(DbQueue.Builder builder);
}
