package io.dbqueue.spring.metrics;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code exception} tag of {@code dbq.task.handled}, read from a task's error. */
class ExceptionTagTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "IllegalStateException: payment service down | IllegalStateException",
            "java.lang.NullPointerException | NullPointerException",
            "AssertionError: expected 1 | AssertionError",
            "told to fail | none",
            "Timeout: the receiver did not answer | none",
            "claimed 11 times without an answer: the lease expired each time | none"})
    void theExceptionIsTheErrorsLeadingExceptionName(String error, String tag) {
        assertThat(DbQueueMetrics.exception(error)).isEqualTo(tag);
    }
}
