package io.dbqueue.bench.driver;

import io.dbqueue.bench.workload.DriverName;


/** Puts a cell's workload on the queue one way (library, raw SQL, services) and measures one repetition. */
public interface Driver {

    /** The name used in workloads, flags and results. */
    DriverName name();

    /**
     * Why this driver cannot run on this machine right now, or null when it can (the in-process
     * PostgreSQL drivers always can). Asked once per bench run.
     */
    default String unavailableReason() {
        return null;
    }

    /**
     * The server this driver measures as it names itself (product and version, and where it came from), learnt
     * by {@link #unavailableReason}; null before that, or for PostgreSQL's drivers, whose server the environment
     * block records.
     */
    default String server() {
        return null;
    }

    /**
     * Whether the load runs in this JVM (the library, its JDBC loop, the brokers' clients), whose JIT
     * compiler is still compiling it during the first seconds of a run; pgbench and the stack's
     * services run in processes of their own.
     */
    default boolean runsInThisJvm() {
        return true;
    }

    /** Runs one repetition against the freshly created table of {@code context}: warm-up, then the measured window. */
    Repetition run(CellContext context) throws Exception;
}
