package io.dbqueue.stack.fault;

import java.util.Arrays;
import java.util.List;

/** The fault scenarios, each injecting its fault a number of times, fewer in the shortened (quick) variant. */
public enum FaultScenario {

    /** SIGKILL of consumer-app mid-batch under load, then a restart. */
    CRASH_CONSUMER("crash_consumer", 5, 2),
    /** SIGKILL of producer-app under load, then a restart; clients send unanswered requests again. */
    CRASH_PRODUCER("crash_producer", 3, 1),
    /** pg_terminate_backend on every client backend of the stack's databases under load; nothing is restarted. */
    CONNECTION_KILL("connection_kill", 3, 2),
    /** The PostgreSQL stopped as by pg_ctl stop -m immediate under load, down for a few seconds, started again;
     *  only on a server the scenario owns (the embedded one), never an external one. */
    CRASH_DATABASE("crash_database", 2, 1),
    /** The queue table locked ACCESS EXCLUSIVE for 10 s under load, as a migration's ALTER TABLE would, twice. */
    LOCK_WAIT("lock_wait", 2, 1);

    private final String id;
    private final int faults;
    private final int quickFaults;

    FaultScenario(String id, int faults, int quickFaults) {
        this.id = id;
        this.faults = faults;
        this.quickFaults = quickFaults;
    }

    public String id() {
        return id;
    }

    int faults(boolean quick) {
        return quick ? quickFaults : faults;
    }

    /** Whether the scenario stops the database, which it may only do to a server it owns. */
    boolean needsOwnServer() {
        return this == CRASH_DATABASE;
    }

    /** {@code name}'s scenario, or every scenario for {@code all}. */
    public static List<FaultScenario> named(String name) {
        if (name.equals("all")) {
            return List.of(values());
        }
        return List.of(Arrays.stream(values()).filter(s -> s.id.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown fault scenario '" + name + "'; known: all, "
                        + Arrays.stream(values()).map(FaultScenario::id).toList())));
    }
}
