package io.dbqueue.testapp;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The life of a run: started on request, completed when every message it sent has been processed,
 * failed when sending fails or nothing moves for {@link TestAppProperties#stallTimeout()}. One run at a time.
 */
@Service
public class Runs {

    private static final Logger LOG = LoggerFactory.getLogger(Runs.class);

    private final RunStore store;
    private final LoadGenerator generator;
    private final TestAppProperties properties;
    private final TransactionTemplate transactions;
    private ActiveRun active; // guarded by this

    public Runs(RunStore store, LoadGenerator generator, TestAppProperties properties,
                TransactionTemplate transactions) {
        this.store = store;
        this.generator = generator;
        this.properties = properties;
        this.transactions = transactions;
    }

    @EventListener(ApplicationReadyEvent.class)
    void failAbandonedRuns() {
        int abandoned = store.failAbandoned();
        if (abandoned > 0) {
            LOG.warn("marked {} run(s) left RUNNING by an earlier test-app as FAILED", abandoned);
        }
    }

    public long start(long messageCount) {
        ActiveRun run;
        synchronized (this) {
            if (active != null) {
                throw new RunInProgressException(active.id());
            }
            run = new ActiveRun(store.create(messageCount), messageCount);
            active = run;
        }
        LOG.info("run {}: sending {} messages", run.id(), messageCount);
        generator.send(run, reason -> fail(run, reason));
        return run.id();
    }

    /**
     * Stores statistics reported by the consumers and completes a run once all its messages are in. A report is
     * stored whole or not at all: one stored in part and then sent again would count its stored part as repeats,
     * and its run would never see those messages as processed. Statistics of a run test-app did not start are kept
     * too: the lab's fault runs drive their own load and read them back from the results database.
     *
     * @throws IllegalArgumentException naming the first statistic that is null or has a timing no clock gives
     */
    public void record(List<Stat> stats) {
        Stat.checkAll(stats);
        Map<Long, List<Stat>> byRun = stats.stream().collect(Collectors.groupingBy(Stat::testId));
        Map<Long, Integer> added = transactions.execute(status -> {
            Map<Long, Integer> stored = new HashMap<>();
            byRun.forEach((runId, runStats) -> stored.put(runId, store.insertStats(runId, runStats)));
            return stored;
        });
        added.forEach((runId, count) -> {
            ActiveRun run = current();
            // a report of repeats only is no progress: it must not hold off the watchdog
            if (run != null && run.id() == runId && count > 0 && run.processed(count)) {
                complete(run);
            }
        });
    }

    public Optional<RunView> find(long runId) {
        ActiveRun run = current();
        return store.find(runId).map(view -> {
            RunView live = run != null && run.id() == runId ? view.withProgress(run.sent(), run.processed()) : view;
            return live.withSeries(store.throughput(runId), store.latencyBuckets(runId, properties.latencyBucketSize()));
        });
    }

    public List<RunView> list() {
        ActiveRun run = current();
        return store.list().stream()
                .map(view -> run != null && run.id() == view.id() ? view.withProgress(run.sent(), run.processed()) : view)
                .toList();
    }

    /** Completes a run whose completion failed (its statistics are all in), else fails a run that stalled. */
    @Scheduled(fixedDelay = 1000)
    void watchdog() {
        ActiveRun run = current();
        Duration idle = Duration.ofNanos(run == null ? 0 : run.nanosSinceProgress());
        if (run != null && run.processed() >= run.messageCount()) {
            complete(run);
        } else if (run != null && idle.compareTo(properties.stallTimeout()) > 0) {
            fail(run, "no progress for " + idle.toSeconds() + " s");
        }
    }

    private synchronized ActiveRun current() {
        return active;
    }

    /**
     * Stores the run's figures and ends it. A failure to store them leaves it running, for the watchdog to complete:
     * its statistics are stored, and a report sent again would be repeats only, which complete nothing.
     */
    private synchronized void complete(ActiveRun run) {
        if (active != run) {
            return;
        }
        try {
            store.complete(run.id(), run.sent());
        } catch (RuntimeException e) {
            LOG.warn("run {}: completing failed, tried again within a second: {}", run.id(), e.toString());
            return;
        }
        run.end();
        active = null;
        LOG.info("run {}: complete, {} messages processed", run.id(), run.processed());
    }

    private synchronized void fail(ActiveRun run, String reason) {
        if (active != run) {
            return;
        }
        run.end();
        String failure = reason + ": sent " + run.sent() + " of " + run.messageCount() + ", processed " + run.processed();
        store.fail(run.id(), run.sent(), run.processed(), failure);
        active = null;
        LOG.warn("run {}: failed: {}", run.id(), failure);
    }
}
