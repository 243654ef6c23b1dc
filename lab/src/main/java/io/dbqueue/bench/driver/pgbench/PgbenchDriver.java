package io.dbqueue.bench.driver.pgbench;

import io.dbqueue.bench.driver.CellContext;
import io.dbqueue.bench.driver.Driver;
import io.dbqueue.bench.driver.InProcessMeasurement;
import io.dbqueue.bench.driver.Load;
import io.dbqueue.bench.driver.Repetition;
import io.dbqueue.bench.driver.postgres.RawSqlStatements;
import io.dbqueue.bench.metrics.ClientStats;
import io.dbqueue.bench.metrics.Meter;
import io.dbqueue.bench.workload.DriverName;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.maintenance.VacuumPolicy;
import io.dbqueue.queue.QueueLocation;
import io.dbqueue.queue.QueueTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The ceiling, measured by PostgreSQL's own client: pgbench runs the load in the same run and on the
 * same server as the library's cells, one pgbench process for the producers and one for the
 * consumers ({@code -c} = the workload's producers and consumers, {@code -j 1} each), for the
 * warm-up, the window and {@link #SLACK_SECONDS} more.
 *
 * <ul>
 *   <li>{@code pgbench}: the library's own statements ({@link RawSqlStatements}) for the cell's
 *   layout, batch size and delivery mode ({@link PgbenchScripts#producer}, {@link PgbenchScripts#consumer});</li>
 *   <li>{@code pgbench-minimal}: the minimal queue, what PostgreSQL does with row deletes and nothing
 *   else: its own table {@value PgbenchScripts#MINIMAL_TABLE} (id, payload, created_at);</li>
 *   <li>{@code pgbench-study}: the published log study's queue variant: one row per {@code INSERT},
 *   one row per claim, deleted and inserted into an archive table ({@value PgbenchScripts#STUDY_TABLE},
 *   {@value PgbenchScripts#STUDY_ARCHIVE}).</li>
 * </ul>
 * A queue of pgbench's own is created for the repetition with the workload's backlog and dropped
 * after it, and reported under the cell's layout so that it pairs with the library's cell. With 0
 * producers (dequeue alone, from the backlog) or 0 consumers (enqueue alone) that side's pgbench
 * does not run.
 *
 * <p>What was enqueued and processed is counted from the table ({@link PgbenchCounter}), not from
 * pgbench's transactions, and measured by the lab's usual window; the server's figures are read for
 * the table the load ran on. Latency is not measured: pgbench's payloads carry no enqueue time, so
 * the repetition's latency stays empty (all zero, "not measured" in the report). The client's CPU
 * is the bench JVM's (the counter) plus both pgbench processes'.
 */
public final class PgbenchDriver implements Driver {

    /** pgbench runs this much longer than warm-up and window, so that it is still running when the window closes. */
    static final long SLACK_SECONDS = 10;

    /** Which statements pgbench runs. */
    enum Kind {
        /** The library's statements. */
        LIBRARY(DriverName.PGBENCH, null),
        /** The minimal queue. */
        MINIMAL(DriverName.PGBENCH_MINIMAL, PgbenchScripts.MINIMAL_QUEUE),
        /** The study's queue variant. */
        STUDY(DriverName.PGBENCH_STUDY, PgbenchScripts.STUDY_QUEUE);

        private final DriverName driverName;
        private final PgbenchScripts.OwnQueue ownQueue;

        Kind(DriverName driverName, PgbenchScripts.OwnQueue ownQueue) {
            this.driverName = driverName;
            this.ownQueue = ownQueue;
        }
    }

    private final Kind kind;

    PgbenchDriver(Kind kind) {
        this.kind = kind;
    }

    /** The library's statements run by pgbench. */
    public static PgbenchDriver library() {
        return new PgbenchDriver(Kind.LIBRARY);
    }

    /** The minimal queue run by pgbench. */
    public static PgbenchDriver minimal() {
        return new PgbenchDriver(Kind.MINIMAL);
    }

    /** The study's queue variant run by pgbench. */
    public static PgbenchDriver study() {
        return new PgbenchDriver(Kind.STUDY);
    }

    @Override
    public DriverName name() {
        return kind.driverName;
    }

    @Override
    public boolean runsInThisJvm() {
        return false;
    }

    @Override
    public String unavailableReason() {
        return PgbenchProcess.unavailableReason(System.getenv("PATH"));
    }

    @Override
    public Repetition run(CellContext context) throws Exception {
        Workload workload = context.workload();
        int batchSize = context.cell().batchSize();
        PgbenchTarget target = PgbenchTarget.of(context.server().jdbcUrl(), context.server().user(),
                context.server().password());
        PgbenchScripts.Script producer;
        PgbenchScripts.Script consumer;
        CellContext measured;
        if (kind == Kind.LIBRARY) {
            producer = PgbenchScripts.producer(statements(context.location().table(), batchSize, workload.mode()),
                    batchSize, workload.messageSize());
            consumer = libraryConsumer(context.location().table(), workload, batchSize);
            measured = context;
        } else {
            createOwnQueue(context, kind.ownQueue);
            producer = kind.ownQueue.producer(batchSize, workload.messageSize());
            consumer = kind.ownQueue.consumer(workload.claimBatch(batchSize));
            QueueTable table = new QueueTable(kind.ownQueue.table(), context.location().table().layout());
            measured = new CellContext(context.cell(), workload,
                    new QueueLocation(table, context.location().queueName()), context.server(), context.admin(),
                    context.serverProbe(), context.clientProbe(), context.stop());
        }
        try {
            long seconds = TimeUnit.NANOSECONDS.toSeconds(workload.warmup().toNanos() + workload.duration().toNanos()
                    + TimeUnit.SECONDS.toNanos(1) - 1) + SLACK_SECONDS;
            List<String> variables = List.of("-D", PgbenchScripts.QUEUE + "=" + context.location().queueName(),
                    "-D", PgbenchScripts.LEASE + "=" + RawSqlStatements.LEASE_MICROS,
                    "-D", PgbenchScripts.READY + "=0");
            AtomicReference<PgbenchLoad> started = new AtomicReference<>();
            Repetition repetition = InProcessMeasurement.run(measured, meter -> {
                PgbenchLoad load = PgbenchLoad.start(measured, target, meter, producer, consumer, seconds, variables);
                started.set(load);
                return load.asLoad();
            });
            return withPgbenchCpu(repetition, started.get());
        } finally {
            if (kind.ownQueue != null) {
                dropOwnQueue(context, kind.ownQueue);
            }
        }
    }

    /**
     * The consumers' script of the library's statements: claiming what the library's workers claim in the cell
     * ({@link Workload#claimBatch}: {@code consumer_batch}, else the cell's batch), whatever the producers' batch.
     */
    static PgbenchScripts.Script libraryConsumer(QueueTable table, Workload workload, int batchSize) {
        int claim = workload.claimBatch(batchSize);
        return PgbenchScripts.consumer(statements(table, claim, workload.mode()), workload.mode(), claim);
    }

    /** The library's statements for the table, batch size and mode, as the scripts take them. */
    static PgbenchScripts.Statements statements(QueueTable table, int batchSize, DeliveryMode mode) {
        RawSqlStatements sql = new RawSqlStatements(table, batchSize);
        return new PgbenchScripts.Statements(sql.enqueue, sql.claimSettings(mode), sql.claim, sql.claimLocked,
                sql.claimAndDelete, sql.restoreSettings(mode), sql.finishSettings(mode), sql.finish,
                sql.genericPlansBeforeFinish,
                table.layout().partitions() > 0);
    }

    /** The repetition with the pgbench processes' CPU added to the client's. */
    private static Repetition withPgbenchCpu(Repetition r, PgbenchLoad load) {
        ClientStats client = r.client();
        Double pgbench = load == null ? null : load.cpuPercent();
        if (client == null || pgbench == null) {
            return r;
        }
        double seconds = r.measurement().seconds();
        ClientStats with = ClientStats.of(client.cpuSeconds() + pgbench / 100 * seconds, seconds,
                r.measurement().processed(), client.threads(), client.rssBytes(), client.connections());
        return new Repetition(r.measurement(), r.server(), with, r.serverMinutes());
    }

    /**
     * A queue of pgbench's own, new for every repetition, with the workload's backlog, analysed and
     * checkpointed as the cell's own table was.
     */
    private static void createOwnQueue(CellContext context, PgbenchScripts.OwnQueue queue) throws SQLException {
        Workload workload = context.workload();
        dropOwnQueue(context, queue);
        try (Connection c = context.admin().getConnection(); Statement st = c.createStatement()) {
            for (String ddl : queue.ddl()) {
                st.execute(ddl);
            }
            if (workload.backlog() > 0) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + queue.table()
                        + " (payload) SELECT " + PgbenchScripts.payload(workload.messageSize())
                        + " FROM generate_series(1, ?)")) {
                    ps.setLong(1, workload.backlog());
                    ps.executeUpdate();
                }
            }
            for (String table : queue.tables()) {
                st.execute("VACUUM ANALYZE " + table);
            }
            try {
                st.execute("CHECKPOINT");
            } catch (SQLException e) {
                // refused on an external server without the privilege: the table preparer warned already
            }
        }
    }

    private static void dropOwnQueue(CellContext context, PgbenchScripts.OwnQueue queue) throws SQLException {
        try (Connection c = context.admin().getConnection(); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + String.join(", ", queue.tables()));
        }
    }

    /** The two pgbench processes and the counter of one repetition. */
    private static final class PgbenchLoad {
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private PgbenchCounter counter;
        private PgbenchProcess producers;
        private PgbenchProcess consumers;

        static PgbenchLoad start(CellContext context, PgbenchTarget target, Meter meter,
                                 PgbenchScripts.Script producer, PgbenchScripts.Script consumer, long seconds,
                                 List<String> variables) throws Exception {
            Workload workload = context.workload();
            PgbenchLoad load = new PgbenchLoad();
            try {
                String table = context.location().table().name();
                PgbenchVacuum vacuum = new PgbenchVacuum(context.server().connect(), table, VacuumPolicy.DEFAULT,
                        load.failure);
                load.counter = PgbenchCounter.start(context.server().connect(), table, workload.consumers() > 0, meter,
                        workload.maxBacklog(), vacuum, load.failure);
                List<String> producerFlags = new ArrayList<>(variables);
                if (workload.producerRate() > 0) {
                    // -R is transactions per second over all clients; a transaction is one batch
                    producerFlags.addAll(List.of("-R", String.format(Locale.ROOT, "%.3f",
                            (double) workload.producerRate() / context.cell().batchSize())));
                }
                if (workload.consumers() > 0) {
                    load.consumers = PgbenchProcess.start("consumers", consumer, target, workload.consumers(), seconds,
                            variables, load.failure);
                }
                if (workload.producers() > 0) {
                    load.producers = PgbenchProcess.start("producers", producer, target, workload.producers(), seconds,
                            producerFlags, load.failure);
                    if (workload.consumers() > 0) { // enqueueing alone, the backlog is the point: never held back
                        load.counter.holdBack(load.producers);
                    }
                }
                return load;
            } catch (Exception e) {
                load.close();
                throw e;
            }
        }

        /** As the in-process measurement runs a load: closing stops the producers first, then the consumers. */
        Load asLoad() {
            return new Load(this::closeProducers, this::closeConsumers, failure);
        }

        private void closeProducers() throws Exception {
            if (counter != null) {
                counter.close();
            }
            if (producers != null) {
                producers.close();
            }
        }

        private void closeConsumers() throws Exception {
            if (consumers != null) {
                consumers.close();
            }
        }

        void close() throws Exception {
            try {
                closeProducers();
            } finally {
                closeConsumers();
            }
        }

        /** The processes' CPU in percent of one core, or null when unknown. */
        Double cpuPercent() {
            Double p = producers == null ? Double.valueOf(0) : producers.cpuPercent();
            Double c = consumers == null ? Double.valueOf(0) : consumers.cpuPercent();
            return p == null || c == null ? null : p + c;
        }
    }
}
