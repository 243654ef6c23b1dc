package io.dbqueue.testapp;

/** A run was asked for while another one is still in progress. */
public class RunInProgressException extends RuntimeException {

    public RunInProgressException(long runId) {
        super("run " + runId + " is still in progress; wait until it completes or fails");
    }
}
