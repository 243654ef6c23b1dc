package io.dbqueue.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Whether anyone wants a channel's notifications, told through a shared session advisory lock that
 * every listener wanting them holds on its LISTEN connection. A sender notifies only when it cannot
 * take the lock exclusively, so a channel nobody waits on gets no NOTIFY at all (and no commit-time
 * lock on the notification queue). The key is (a constant for db-queue, the channel's hash); two
 * channels that share a hash only cost each other a few unwanted notifications.
 */
public final class ListenerPresence {

    /** "dbqw": keeps the locks apart from an application's own two-key advisory locks. */
    static final int LOCK_CLASS = 0x64627177;

    /** The notification, sent only if some session holds the channel's presence lock. */
    static final String NOTIFY_IF_PRESENT = "SELECT set_config('synchronous_commit', 'off', true), pg_notify(?, ?)"
            + " WHERE NOT pg_try_advisory_xact_lock(?, ?)";

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

    /** Binds {@link #NOTIFY_IF_PRESENT}'s parameters. */
    static void bindNotify(PreparedStatement ps, String channel, String payload) throws SQLException {
        ps.setString(1, channel);
        ps.setString(2, payload);
        ps.setInt(3, LOCK_CLASS);
        ps.setInt(4, channel.hashCode());
    }

    private static void run(Connection c, String sql, String channel) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, LOCK_CLASS);
            ps.setInt(2, channel.hashCode());
            ps.execute();
        }
    }
}
