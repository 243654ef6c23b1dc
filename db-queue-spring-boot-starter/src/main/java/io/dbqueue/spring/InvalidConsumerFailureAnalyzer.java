package io.dbqueue.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a consumer the starter cannot run as "APPLICATION FAILED TO START" naming it, not a stack trace. */
class InvalidConsumerFailureAnalyzer extends AbstractFailureAnalyzer<InvalidConsumerException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidConsumerException cause) {
        return new FailureAnalysis("Invalid db-queue consumer: " + cause.getMessage(),
                "Correct the method, bean or property named above (docs/spring-boot.md describes listeners, consumers"
                        + " and schedules).", cause);
    }
}
