package io.dbqueue.serverwatch;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One check of a {@link VacuumWatch}: who holds the database's xmin horizon, and how the queue
 * tables' dead tuples stand.
 *
 * @param checkedAt when the check ran
 * @param horizon   the oldest holder of the horizon; empty when nothing holds it
 * @param tables    each watched table, in the order given
 */
public record VacuumReport(Instant checkedAt, Optional<HorizonHolder> horizon, List<TableVacuum> tables) {

    /**
     * One queue table, partitions summed ({@code pg_stat_user_tables}).
     *
     * @param table          the table's name
     * @param deadTuples     dead tuples not yet removed ({@code n_dead_tup}), as of the statistics'
     *                       latest flush (a backend flushes within about a second; VACUUM at once)
     * @param liveTuples     estimated live tuples ({@code n_live_tup})
     * @param totalBytes     the table's size with its indexes and TOAST
     * @param lastVacuum     the latest manual VACUUM of the table (of any partition); null if none
     * @param lastAutovacuum the latest autovacuum of the table (of any partition); null if none
     * @param blocked        the verdict of {@link VacuumThresholds#blocked}
     */
    public record TableVacuum(String table, long deadTuples, long liveTuples, long totalBytes, Instant lastVacuum,
                              Instant lastAutovacuum, boolean blocked) {

        public TableVacuum {
            Objects.requireNonNull(table, "table");
        }
    }

    public VacuumReport {
        Objects.requireNonNull(checkedAt, "checkedAt");
        Objects.requireNonNull(horizon, "horizon");
        tables = List.copyOf(tables);
    }

    /** The tables whose vacuum is blocked. */
    public List<TableVacuum> blocked() {
        return tables.stream().filter(TableVacuum::blocked).toList();
    }

    /** The watched table named {@code name}; throws {@link IllegalArgumentException} for another name. */
    public TableVacuum table(String name) {
        return tables.stream().filter(t -> t.table().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("table '" + name + "' is not watched; watched: "
                        + tables.stream().map(TableVacuum::table).toList()));
    }
}
