package io.dbqueue.testapp;

public enum RunStatus {
    RUNNING, COMPLETE, FAILED
}
