package io.dbqueue.serverwatch;

import io.dbqueue.serverwatch.VacuumReport.TableVacuum;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class VacuumAlertsTest {

    private final List<String> events = new ArrayList<>();
    private final VacuumListener recording = new VacuumListener() {
        @Override
        public void checked(VacuumReport report) {
            events.add("checked");
        }

        @Override
        public void blocked(TableVacuum table, HorizonHolder holder) {
            events.add("blocked " + table.table() + " by " + holder.name());
        }

        @Override
        public void cleared(TableVacuum table) {
            events.add("cleared " + table.table());
        }
    };
    private final VacuumAlerts alerts = new VacuumAlerts(List.of(recording));

    private static HorizonHolder session(String pid, Instant since) {
        return new HorizonHolder(HorizonHolder.Kind.SESSION, pid, Integer.parseInt(pid), "app",
                "idle in transaction", "", since, since, 5_000, Optional.of(Duration.ofSeconds(90)));
    }

    private static VacuumReport report(HorizonHolder holder, boolean ordersBlocked, boolean mailBlocked) {
        return new VacuumReport(Instant.now(), Optional.ofNullable(holder), List.of(
                new TableVacuum("orders", 9_000, 10, 8192, null, null, ordersBlocked),
                new TableVacuum("mail", 9_000, 10, 8192, null, null, mailBlocked)));
    }

    @Test
    void reportsEachHolderOncePerTableWhileItLastsAndWhenItClears() {
        Instant since = Instant.parse("2025-05-01T10:00:00Z");
        HorizonHolder first = session("4711", since);
        alerts.update(report(first, true, false));
        alerts.update(report(first, true, false));
        alerts.update(report(session("4711", since), true, true));
        assertEquals(List.of("blocked orders by 4711", "checked", "checked", "blocked mail by 4711", "checked"),
                events);

        events.clear();
        alerts.update(report(session("4711", since.plusSeconds(120)), true, true));
        assertEquals(List.of("blocked orders by 4711", "blocked mail by 4711", "checked"), events,
                "a new transaction of the same session is another holder");

        events.clear();
        alerts.update(report(session("4711", since.plusSeconds(120)), false, true));
        alerts.update(report(null, false, false));
        alerts.update(report(null, false, false));
        assertEquals(List.of("cleared orders", "checked", "cleared mail", "checked", "checked"), events);
    }

    @Test
    void aFailingListenerDoesNotStopTheOthers() {
        VacuumListener failing = new VacuumListener() {
            @Override
            public void blocked(TableVacuum table, HorizonHolder holder) {
                throw new IllegalStateException("metrics backend down");
            }
        };
        new VacuumAlerts(List.of(failing, recording)).update(report(session("1", Instant.EPOCH), true, false));
        assertEquals(List.of("blocked orders by 1", "checked"), events);
    }

    @Test
    void theWarningNamesTableAgesHolderAndDeadTuples() {
        TableVacuum table = new TableVacuum("orders", 12_000, 10, 8192, null, null, true);
        HorizonHolder holder = new HorizonHolder(HorizonHolder.Kind.SESSION, "4711", 4711, "app",
                "idle in transaction", "psql", Instant.parse("2025-05-01T10:00:00Z"),
                Instant.parse("2025-05-01T10:00:01Z"), 5_400, Optional.of(Duration.ofMillis(75_240)));
        assertEquals("queue table orders: vacuum blocked, 12000 dead tuples cannot be removed; the xmin horizon is"
                        + " 75.2 s and 5400 transactions old, held by session pid 4711 (user app, application 'psql',"
                        + " idle in transaction, transaction since 2025-05-01T10:00:00Z,"
                        + " last query since 2025-05-01T10:00:01Z)",
                VacuumAlerts.blockedMessage(table, holder));
        HorizonHolder slot = new HorizonHolder(HorizonHolder.Kind.REPLICATION_SLOT, "standby_1", 0, null, "inactive",
                null, null, null, 200_000, Optional.empty());
        assertEquals("queue table orders: vacuum blocked, 12000 dead tuples cannot be removed; the xmin horizon is"
                + " 200000 transactions old, held by replication slot 'standby_1' (inactive)",
                VacuumAlerts.blockedMessage(table, slot));
    }
}
