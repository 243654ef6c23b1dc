package io.dbqueue.bench.scenario;

import com.zaxxer.hikari.HikariDataSource;
import io.dbqueue.bench.metrics.ProcStatus;
import io.dbqueue.postgres.PostgresServer;

import java.util.ArrayList;
import java.util.List;

/** A run's consumers: one set of workers in this JVM, or one {@link ConsumerProcess} per spec. */
final class Consumers implements AutoCloseable {

    private final HikariDataSource pool; // in this JVM only
    private final ConsumerSpec.Running running;
    private final List<ConsumerProcess> processes;
    private long switches;
    private boolean stopped;

    private Consumers(HikariDataSource pool, ConsumerSpec.Running running, List<ConsumerProcess> processes) {
        this.pool = pool;
        this.running = running;
        this.processes = processes;
    }

    static Consumers start(List<ConsumerSpec> specs, PostgresServer server, TaskEvents events) throws Exception {
        if (specs.size() == 1) {
            HikariDataSource pool = server.dataSource(ScenarioRun.poolFor(specs.get(0).workers()));
            return new Consumers(pool, specs.get(0).start(pool, events), List.of());
        }
        List<ConsumerProcess> started = new ArrayList<>();
        try {
            for (ConsumerSpec spec : specs) {
                started.add(ConsumerProcess.start(spec, server, events));
            }
        } catch (Exception e) {
            for (ConsumerProcess p : started) {
                p.close();
            }
            throw e;
        }
        return new Consumers(null, null, started);
    }

    /** Live threads and resident bytes of the consumer JVMs (this one, for in-process consumers). */
    long[] threadsAndRss() {
        List<Long> pids = processes.isEmpty() ? List.of(ProcessHandle.current().pid())
                : processes.stream().map(ConsumerProcess::pid).toList();
        long threads = 0;
        long rss = 0;
        for (long pid : pids) {
            threads += ProcStatus.threads(pid);
            rss += ProcStatus.rssBytes(pid);
        }
        return new long[]{threads, rss};
    }

    /** Stops the workers; their last events are in the ledger when this returns. */
    void stop() throws InterruptedException {
        if (stopped) {
            return;
        }
        stopped = true;
        if (running != null) {
            running.close();
            switches = running.workers().wakeupSwitches();
            pool.close();
        }
        for (ConsumerProcess p : processes) {
            p.close();
            switches += p.switches();
        }
    }

    long switches() {
        return switches;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
