package io.dbqueue.bench.scenario;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every task of a run and what happened to it: sent (with its tenant, planned failures, due time and
 * the producer's acknowledgement), first claimed, finished or dead-lettered. Workers may report a
 * claim before the producer has recorded the acknowledgement (the commit is visible before its
 * caller hears of it); the entries meet by id.
 */
final class TaskLedger implements TaskEvents {

    /** One task's record; fields are written inside the map's per-key compute, read after the run. */
    static final class Entry {
        int tenant = -1;
        int plannedFailures;
        long dueMicros;
        long ackMicros;
        long firstClaimMicros;
        long finishMicros;
        int failedAttempts;
        boolean dead;

        boolean sent() {
            return tenant >= 0;
        }

        boolean done() {
            return finishMicros > 0 || dead;
        }
    }

    private final Map<Long, Entry> byId = new ConcurrentHashMap<>();

    void sent(long id, int tenant, int plannedFailures, long dueMicros, long ackMicros) {
        byId.compute(id, (k, e) -> {
            Entry entry = e == null ? new Entry() : e;
            entry.tenant = tenant;
            entry.plannedFailures = plannedFailures;
            entry.dueMicros = dueMicros;
            entry.ackMicros = ackMicros;
            return entry;
        });
    }

    @Override
    public void claimed(long id, int attempt, long micros) {
        byId.compute(id, (k, e) -> {
            Entry entry = e == null ? new Entry() : e;
            if (entry.firstClaimMicros == 0) {
                entry.firstClaimMicros = micros;
            }
            return entry;
        });
    }

    @Override
    public void finished(long id, long micros) {
        byId.compute(id, (k, e) -> {
            Entry entry = e == null ? new Entry() : e;
            entry.finishMicros = micros;
            return entry;
        });
    }

    @Override
    public void failed(long id, boolean dead) {
        byId.compute(id, (k, e) -> {
            Entry entry = e == null ? new Entry() : e;
            entry.failedAttempts++;
            entry.dead |= dead;
            return entry;
        });
    }

    /** Sent tasks not yet finished or dead-lettered. */
    long open() {
        return byId.values().stream().filter(e -> e.sent() && !e.done()).count();
    }

    Collection<Entry> entries() {
        return byId.values();
    }
}
