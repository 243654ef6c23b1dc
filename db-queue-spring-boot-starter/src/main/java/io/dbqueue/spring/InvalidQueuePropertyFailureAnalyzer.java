package io.dbqueue.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a bad {@code dbq.*} value, or a queue table that does not exist, as "APPLICATION FAILED TO START" with the
 * property, not a stack trace.
 */
class InvalidQueuePropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidQueuePropertyException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidQueuePropertyException cause) {
        return new FailureAnalysis("Invalid db-queue configuration: " + cause.getMessage(),
                cause instanceof MissingQueueTableException
                        ? "Create the queue's tables in a migration (Flyway, Liquibase) from its layout's DDL, or let"
                        + " the starter create them at start-up with dbq.initialize-schema=always."
                        : "Correct the dbq.* property named above (see docs/spring-boot.md for every property and its"
                        + " default).",
                cause);
    }
}
