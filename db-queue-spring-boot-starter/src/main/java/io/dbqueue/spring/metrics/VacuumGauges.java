package io.dbqueue.spring.metrics;

import io.dbqueue.serverwatch.HorizonHolder;
import io.dbqueue.serverwatch.VacuumReport;
import io.dbqueue.serverwatch.VacuumWatch;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.function.ToDoubleFunction;

/**
 * Gauges per queue table, tagged {@code table=<name>}, read from the {@link VacuumWatch}'s latest report
 * (a scrape never queries the database): the age of the xmin horizon in seconds and in transactions
 * (the horizon is the database's, so every table shows the same; 0 when nothing holds it), the table's
 * dead tuples, and whether its vacuum is blocked (1) or not (0). NaN before the first check, after a
 * failed one, and for the age in seconds when a replication slot, which records no time, holds the horizon.
 */
public final class VacuumGauges {

    public static final String HORIZON_AGE = "dbq.table.vacuum.horizon.age";
    public static final String HORIZON_TRANSACTIONS = "dbq.table.vacuum.horizon.transactions";
    public static final String DEAD_TUPLES = "dbq.table.dead.tuples";
    public static final String BLOCKED = "dbq.table.vacuum.blocked";
    public static final String TAG = "table";

    public VacuumGauges(MeterRegistry registry, VacuumWatch watch) {
        for (String table : watch.tables()) {
            gauge(registry, HORIZON_AGE, "Age of the database's xmin horizon, which VACUUM must respect; 0 when none",
                    "seconds", watch, table, report -> report.horizon()
                            .map(h -> h.age().map(age -> age.toNanos() / 1e9).orElse(Double.NaN)).orElse(0.0));
            gauge(registry, HORIZON_TRANSACTIONS, "Age of the database's xmin horizon in transactions; 0 when none",
                    "transactions", watch, table,
                    report -> report.horizon().map(HorizonHolder::ageTransactions).orElse(0L));
            gauge(registry, DEAD_TUPLES, "Dead tuples VACUUM has not removed from the table, partitions summed",
                    "tuples", watch, table, report -> report.table(table).deadTuples());
            gauge(registry, BLOCKED, "1 while the table's vacuum is blocked by an old xmin horizon, else 0", null,
                    watch, table, report -> report.table(table).blocked() ? 1 : 0);
        }
    }

    private static void gauge(MeterRegistry registry, String name, String description, String unit, VacuumWatch watch,
                              String table, ToDoubleFunction<VacuumReport> value) {
        Gauge.builder(name, watch, w -> w.latest().map(value::applyAsDouble).orElse(Double.NaN))
                .description(description).baseUnit(unit).tag(TAG, table).strongReference(true).register(registry);
    }
}
