package io.dbqueue.bench.driver.postgres;

import io.dbqueue.bench.driver.CellContext;
import io.dbqueue.bench.driver.Driver;
import io.dbqueue.bench.driver.InProcessMeasurement;
import io.dbqueue.bench.driver.Load;
import io.dbqueue.bench.driver.Producers;
import io.dbqueue.bench.driver.Repetition;
import io.dbqueue.bench.metrics.Meter;
import io.dbqueue.bench.metrics.Payloads;
import io.dbqueue.bench.workload.DriverName;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.queue.PollSettings;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The ceiling: the library's statements from a minimal JDBC loop, one connection per thread,
 * every statement auto-committed, no pool, no listener, no task objects. Consumers wait as the
 * library's workers do (the experiment's poll settings), so only the library's own cost differs.
 */
public final class RawSqlDriver implements Driver {

    @Override
    public DriverName name() {
        return DriverName.RAW_SQL;
    }

    @Override
    public Repetition run(CellContext context) throws Exception {
        String queue = context.location().queueName();
        Workload workload = context.workload();
        int batchSize = context.cell().batchSize();
        int claimBatch = workload.claimBatch(batchSize); // as the direct driver's workers claim
        RawSqlStatements sql = new RawSqlStatements(context.location().table(), claimBatch);
        return InProcessMeasurement.run(context, meter -> {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Consumers consumers = new Consumers(context, sql, queue, claimBatch, meter, failure);
            Producers producers = Producers.start(workload, batchSize, meter,
                    () -> new RawSender(context.server().connect(), sql, queue), failure);
            return new Load(producers, consumers, failure);
        });
    }

    private static final class RawSender implements Producers.Sender {
        private final Connection connection;
        private final PreparedStatement insert;

        RawSender(Connection connection, RawSqlStatements sql, String queue) throws SQLException {
            this.connection = connection;
            this.insert = connection.prepareStatement(sql.enqueue);
            insert.setString(1, queue);
        }

        @Override
        public void send(List<String> payloads) throws SQLException {
            insert.setArray(2, connection.createArrayOf("text", payloads.toArray()));
            try (ResultSet ids = insert.executeQuery()) {
                while (ids.next()) {
                    ids.getLong(1);
                }
            }
        }

        @Override
        public void close() throws SQLException {
            connection.close();
        }
    }

    /**
     * Consumer threads: claim a batch and delete it as the workload's delivery mode says (claim with
     * a lease, then delete; claim and delete in one transaction; delete on claim), report it, and
     * wait as the library does after a partial or empty claim.
     */
    private static final class Consumers implements AutoCloseable {
        private static final PollSettings POLL = PollSettings.DEFAULT;

        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean running = true;

        Consumers(CellContext context, RawSqlStatements sql, String queue, int batchSize, Meter meter,
                  AtomicReference<Throwable> failure) {
            for (int i = 0; i < context.workload().consumers(); i++) {
                Thread thread = new Thread(() -> {
                    try (Connection c = context.server().connect()) {
                        consume(c, sql, queue, batchSize, context.workload().mode(), meter);
                    } catch (SQLException | RuntimeException e) {
                        if (running) {
                            failure.compareAndSet(null, e);
                        }
                    }
                }, "bench-raw-consumer-" + (i + 1));
                thread.setDaemon(true);
                threads.add(thread);
            }
            threads.forEach(Thread::start);
        }

        private void consume(Connection c, RawSqlStatements sql, String queue, int batchSize, DeliveryMode mode,
                             Meter meter) throws SQLException {
            long[] ids = new long[batchSize];
            long[] stamps = new long[batchSize];
            c.setAutoCommit(mode != DeliveryMode.EXACTLY_ONCE);
            boolean genericPlans = mode == DeliveryMode.EXACTLY_ONCE && sql.genericPlansBeforeFinish;
            int resultsBefore = sql.resultsBeforeClaim(mode);
            try (PreparedStatement claim = c.prepareStatement(sql.claimComposite(mode));
                 PreparedStatement finish = c.prepareStatement(sql.finishComposite(mode));
                 Statement setting = c.createStatement()) {
                if (sql.byIdNamesQueue) {
                    finish.setString(2, queue);
                }
                int p = 1;
                if (mode == DeliveryMode.AT_LEAST_ONCE) {
                    claim.setLong(p++, RawSqlStatements.LEASE_MICROS);
                }
                claim.setString(p++, queue);
                if (sql.byIdNamesQueue && mode != DeliveryMode.EXACTLY_ONCE) {
                    claim.setString(p, queue); // the update or delete of the picked rows, by id and queue
                }
                while (running) {
                    int claimed = 0;
                    claim.execute();
                    for (int i = 0; i < resultsBefore; i++) {
                        claim.getMoreResults();
                    }
                    try (ResultSet rs = claim.getResultSet()) {
                        while (rs.next()) {
                            ids[claimed] = rs.getLong(1);
                            stamps[claimed] = Payloads.stamp(rs.getString(3));
                            claimed++;
                        }
                    }
                    if (claimed > 0 && mode != DeliveryMode.AT_MOST_ONCE) {
                        Long[] boxed = new Long[claimed];
                        for (int i = 0; i < claimed; i++) {
                            boxed[i] = ids[i];
                        }
                        if (genericPlans) {
                            setting.execute(RawSqlStatements.GENERIC_PLANS);
                        }
                        Array batch = c.createArrayOf("bigint", boxed);
                        finish.setArray(1, batch);
                        if (sql.byIdNamesQueue) {
                            finish.setArray(3, batch); // the range of the batch's ids
                            finish.setArray(4, batch);
                        }
                        finish.execute();
                    }
                    if (mode == DeliveryMode.EXACTLY_ONCE) {
                        c.commit();
                    }
                    if (claimed > 0) {
                        meter.processed(stamps, claimed);
                    }
                    long wait = claimed >= batchSize ? 0
                            : claimed > 0 ? POLL.betweenTaskTimeout().toNanos() : POLL.noTaskTimeout().toNanos();
                    LockSupport.parkNanos(wait);
                }
            }
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            }
        }
    }
}
