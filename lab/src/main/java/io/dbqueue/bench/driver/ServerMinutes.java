package io.dbqueue.bench.driver;

import io.dbqueue.bench.metrics.ServerMinute;
import io.dbqueue.bench.metrics.ServerProbe;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Reads the server's counters at the end of each full minute of a window, the last one included. */
final class ServerMinutes {

    private final ServerProbe probe;
    private final List<String> tables;
    private final List<ServerMinute> minutes = new ArrayList<>();
    private ServerProbe.Counters last;

    /** Minutes counted from {@code opened}, the counters read when the window opened. */
    ServerMinutes(ServerProbe probe, List<String> tables, ServerProbe.Counters opened) {
        this.probe = probe;
        this.tables = tables;
        this.last = opened;
    }

    void minuteEnded() throws SQLException {
        ServerProbe.Counters now = probe.counters(tables);
        minutes.add(now.minuteSince(last, minutes.size() + 1));
        last = now;
    }

    /** The window closed after {@code seconds}: its last minute counts when it is (nearly) complete, as in the throughput series. */
    void windowEnded(double seconds) throws SQLException {
        if (seconds >= (minutes.size() + 1) * 60 - 0.5) {
            minuteEnded();
        }
    }

    List<ServerMinute> minutes() {
        return List.copyOf(minutes);
    }
}
