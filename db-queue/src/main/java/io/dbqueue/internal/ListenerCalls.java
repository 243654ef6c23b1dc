package io.dbqueue.internal;

import org.slf4j.Logger;

/**
 * Calls a user's listener from the library's own threads: a failure in it is logged, never thrown on into a worker or
 * a group member, where it ended the thread or undid work the listener only watched.
 */
public final class ListenerCalls {

    private ListenerCalls() {
    }

    /** Runs {@code call}, logging on {@code log} a RuntimeException or an Error it throws; only the JVM's own errors pass. */
    public static void guard(Logger log, Object listener, String callback, Runnable call) {
        try {
            call.run();
        } catch (VirtualMachineError e) {
            throw e;
        } catch (RuntimeException | Error e) { // an Error too: a metrics library's missing class at run time
            log.warn("listener {} failed in {}()", listener.getClass().getName(), callback, e);
        }
    }
}
