package io.dbqueue.wakeup;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Whether anyone wants a channel's notifications, told through a shared session advisory lock that
 * every listener wanting them holds on its LISTEN connection. A sender notifies only when it cannot
 * take the lock exclusively (it takes and gives it back at once, so that two senders never see
 * each other's check as a listener), so a channel nobody waits on gets no NOTIFY at all (and no
 * commit-time lock on the notification queue). The key is (a constant for db-queue, the channel's
 * hash); two channels that share a hash only cost each other a few unwanted notifications.
 */
public final class ListenerPresence {

    /** "dbqw": keeps the locks apart from an application's own two-key advisory locks. */
    static final int LOCK_CLASS = 0x64627177;

    /** True while some session holds the lock shared; the CASE keeps the unlock to a lock just taken. */
    private static final String PRESENT = "CASE WHEN pg_try_advisory_lock(?, ?) THEN NOT pg_advisory_unlock(?, ?) ELSE true END";

    /**
     * The notification in a transaction of its own, sent only if some session holds the channel's
     * presence lock; a row comes back when it was sent.
     */
    static final String NOTIFY_IF_PRESENT = "SELECT set_config('synchronous_commit', 'off', true), pg_notify(?, ?)"
            + " WHERE " + PRESENT;

    /** As {@link #NOTIFY_IF_PRESENT}, to append to a writer's statement: it leaves the commit as it is. */
    public static final String NOTIFY_IN_TRANSACTION = "SELECT pg_notify(?, ?) WHERE " + PRESENT;

    private ListenerPresence() {
    }

    public static void hold(Connection listening, String channel) throws SQLException {
        run(listening, "SELECT pg_advisory_lock_shared(?, ?)", channel);
    }

    public static void release(Connection listening, String channel) throws SQLException {
        run(listening, "SELECT pg_advisory_unlock_shared(?, ?)", channel);
    }

    /** Releases every session advisory lock of a connection about to go back to its pool. */
    static void releaseAll(Connection listening) throws SQLException {
        try (PreparedStatement ps = listening.prepareStatement("SELECT pg_advisory_unlock_all()")) {
            ps.execute();
        }
    }

    /** Binds the parameters of {@link #NOTIFY_IF_PRESENT} or {@link #NOTIFY_IN_TRANSACTION}, the first at {@code index}. */
    public static void bindNotify(PreparedStatement ps, int index, String channel, String payload) throws SQLException {
        ps.setString(index, channel);
        ps.setString(index + 1, payload);
        for (int key = index + 2; key < index + 6; key += 2) {
            ps.setInt(key, LOCK_CLASS);
            ps.setInt(key + 1, channel.hashCode());
        }
    }

    private static void run(Connection c, String sql, String channel) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, LOCK_CLASS);
            ps.setInt(2, channel.hashCode());
            ps.execute();
        }
    }
}
