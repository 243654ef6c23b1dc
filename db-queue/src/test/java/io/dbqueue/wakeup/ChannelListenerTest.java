package io.dbqueue.wakeup;

import io.dbqueue.TestDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertTrue;

class ChannelListenerTest {

    /**
     * A consumer added while the session runs starts waiting for notifications once {@code awaitChannels} returns,
     * and producers notify only channels whose presence is announced: told before the announcement, a producer's
     * enqueue right after finds nobody listening and sends nothing, and the idle consumer sleeps through it (the
     * starter's ConsumerTest.notifyWakeupsReachAnIdleConsumer once did). The announcement here is held back until
     * the test has looked, or for 2 seconds, so that a waiter told too early finds no presence.
     */
    @Test
    void awaitChannelsReturnsOnlyOnceTheNewChannelIsAnnounced() throws Exception {
        String channel = "dbq_test_presence";
        AtomicBoolean added = new AtomicBoolean();
        CountDownLatch looked = new CountDownLatch(1);
        try (ChannelListener listener = ChannelListener.start(TestDatabase.dataSource(), "dbq-test-listener")) {
            listener.announce(() -> {
                if (!added.get()) {
                    return Set.of();
                }
                try {
                    looked.await(2, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Set.of(channel);
            });
            added.set(true); // wanted before it is listened on, as QueueWakeups.add does
            listener.on(channel, "q", () -> { });
            listener.awaitChannels();
            boolean present = present(channel);
            looked.countDown();
            assertTrue(present, "a producer would find the channel's listener present");
        }
    }

    private static boolean present(String channel) throws SQLException {
        try (Connection c = TestDatabase.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT 1 WHERE "
                     + "CASE WHEN pg_try_advisory_lock(?, ?) THEN NOT pg_advisory_unlock(?, ?) ELSE true END")) {
            for (int i = 1; i <= 4; i += 2) {
                ps.setInt(i, ListenerPresence.LOCK_CLASS);
                ps.setInt(i + 1, channel.hashCode());
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }
}
