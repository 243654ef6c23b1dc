package io.dbqueue.internal;

import java.util.concurrent.ThreadFactory;

/** Threads of the library's background work (notifying, vacuuming, watching, retention): daemons, named. */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    /** A factory of daemon threads called {@code name}: each executor that uses it runs one thread. */
    public static ThreadFactory named(String name) {
        return r -> {
            Thread thread = new Thread(r, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
