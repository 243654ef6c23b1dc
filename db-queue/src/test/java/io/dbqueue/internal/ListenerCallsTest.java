package io.dbqueue.internal;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ListenerCallsTest {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerCallsTest.class);

    @Test
    void anExceptionOrAnErrorOfTheListenerIsLoggedNotThrown() {
        assertDoesNotThrow(() -> ListenerCalls.guard(LOG, this, "picked", () -> {
            throw new IllegalStateException("the listener's metrics are down");
        }));
        assertDoesNotThrow(() -> ListenerCalls.guard(LOG, this, "picked", () -> {
            throw new NoClassDefFoundError("io/metrics/Timer");
        }));
    }

    @Test
    void theJvmsOwnErrorsPassThrough() {
        assertThrows(OutOfMemoryError.class, () -> ListenerCalls.guard(LOG, this, "picked", () -> {
            throw new OutOfMemoryError("Java heap space");
        }));
    }
}
