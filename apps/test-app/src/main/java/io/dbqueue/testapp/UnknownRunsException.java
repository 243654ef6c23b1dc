package io.dbqueue.testapp;

import java.util.List;

/** Statistics named runs that test-app never started; none of the report was stored. */
public class UnknownRunsException extends RuntimeException {

    public UnknownRunsException(List<Long> runIds) {
        super("statistics name runs that do not exist: " + runIds + "; nothing of the report was stored");
    }
}
