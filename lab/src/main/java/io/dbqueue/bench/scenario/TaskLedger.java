package io.dbqueue.bench.scenario;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * Every task of a run and what happened to it: sent (with its tenant, planned failures, due time and
 * the producer's acknowledgement), each attempt's claim and, for those due later (delayed, retried),
 * the time it came due, finished or dead-lettered. Workers may report a
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
        final Map<Integer, Long> claims = new HashMap<>(); // per attempt
        final Map<Integer, Long> dues = new HashMap<>(); // per attempt due after it was written
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
    private final Queue<Long> claims = new ConcurrentLinkedQueue<>(); // every attempt's claim, in microseconds

    void sent(long id, int tenant, int plannedFailures, long dueMicros, long ackMicros) {
        update(id, entry -> {
            entry.tenant = tenant;
            entry.plannedFailures = plannedFailures;
            entry.dueMicros = dueMicros;
            entry.ackMicros = ackMicros;
        });
    }

    @Override
    public void claimed(long id, int attempt, long micros) {
        claims.add(micros);
        update(id, entry -> {
            if (entry.firstClaimMicros == 0) {
                entry.firstClaimMicros = micros;
            }
            entry.claims.putIfAbsent(attempt, micros);
        });
    }

    @Override
    public void comesDue(long id, int attempt, long micros) {
        update(id, entry -> entry.dues.put(attempt, micros));
    }

    @Override
    public void finished(long id, long micros) {
        update(id, entry -> entry.finishMicros = micros);
    }

    @Override
    public void failed(long id, boolean dead) {
        update(id, entry -> {
            entry.failedAttempts++;
            entry.dead |= dead;
        });
    }

    /** Changes task {@code id}'s entry, made if it is the first word of it, within the map's lock on that key. */
    private void update(long id, Consumer<Entry> change) {
        byId.compute(id, (k, e) -> {
            Entry entry = e == null ? new Entry() : e;
            change.accept(entry);
            return entry;
        });
    }

    /** Attempts started per second from {@code fromMicros} to {@code toMicros}, retries included. */
    double claimRate(long fromMicros, long toMicros) {
        return claims.stream().filter(m -> m >= fromMicros && m < toMicros).count() / ((toMicros - fromMicros) / 1e6);
    }

    /** Sent tasks not yet finished or dead-lettered. */
    long open() {
        return byId.values().stream().filter(e -> e.sent() && !e.done()).count();
    }

    Collection<Entry> entries() {
        return byId.values();
    }
}
