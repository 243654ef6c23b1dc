package io.dbqueue.serverwatch;

import io.dbqueue.serverwatch.VacuumReport.TableVacuum;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns a {@link VacuumWatch}'s reports into log lines and listener calls: a WARN when a table's vacuum
 * becomes blocked, once per holder while it lasts (checks repeat; the log should not), and an INFO
 * when it clears. Not thread-safe: {@link VacuumWatch} calls it under its lock.
 */
final class VacuumAlerts {

    private static final Logger LOG = LoggerFactory.getLogger(VacuumWatch.class);

    private final List<VacuumListener> listeners;
    /** The holder each blocked table was reported for, by table. */
    private final Map<String, HorizonHolder> reported = new HashMap<>();

    VacuumAlerts(List<VacuumListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    void update(VacuumReport report) {
        for (TableVacuum table : report.tables()) {
            if (table.blocked()) {
                HorizonHolder holder = report.horizon().orElseThrow();
                HorizonHolder before = reported.put(table.table(), holder);
                if (before == null || !before.identity().equals(holder.identity())) {
                    LOG.warn(blockedMessage(table, holder));
                    notify("blocked", l -> l.blocked(table, holder));
                }
            } else if (reported.containsKey(table.table())) {
                HorizonHolder before = reported.remove(table.table());
                LOG.info("queue table {}: vacuum no longer blocked by {}; {} dead tuples", table.table(),
                        before.describe(), table.deadTuples());
                notify("cleared", l -> l.cleared(table));
            }
        }
        notify("checked", l -> l.checked(report));
    }

    /**
     * {@code queue table orders: vacuum blocked, 12000 dead tuples cannot be removed; the xmin horizon is
     * 75.2 s and 5400 transactions old, held by session pid 4711 (user app, idle in transaction, ...)}.
     */
    static String blockedMessage(TableVacuum table, HorizonHolder holder) {
        String age = holder.age().map(a -> seconds(a) + " s and ").orElse("");
        return "queue table " + table.table() + ": vacuum blocked, " + table.deadTuples()
                + " dead tuples cannot be removed; the xmin horizon is " + age + holder.ageTransactions()
                + " transactions old, held by " + holder.describe();
    }

    private static String seconds(Duration age) {
        return String.format(Locale.ROOT, "%.1f", age.toMillis() / 1000.0);
    }

    /** Calls each listener; one that throws is logged and does not stop the others. */
    private void notify(String callback, Consumer<VacuumListener> call) {
        for (VacuumListener listener : listeners) {
            try {
                call.accept(listener);
            } catch (RuntimeException e) {
                LOG.warn("vacuum listener {} failed in {}()", listener.getClass().getName(), callback, e);
            }
        }
    }
}
