package io.dbqueue.wakeup;

import io.dbqueue.TestDatabase;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
            listener.on(channel, "q", () -> true, () -> { });
            listener.awaitChannels();
            boolean present = present(channel);
            looked.countDown();
            assertTrue(present, "a producer would find the channel's listener present");
        }
    }

    /**
     * A channel already listened on that becomes wanted (readers added to a table another queue's readers listen on)
     * is announced by the time awaitChannels returns. It returned at once, as for no new channel, and the presence
     * came a round later: a producer's enqueue in between notified nobody.
     */
    @Test
    void awaitChannelsReturnsOnlyOnceAChannelListenedOnAlreadyIsAnnounced() throws Exception {
        String channel = "dbq_test_presence_later";
        AtomicBoolean wanted = new AtomicBoolean();
        try (ChannelListener listener = ChannelListener.start(TestDatabase.dataSource(), "dbq-test-listener")) {
            listener.announce(() -> wanted.get() ? Set.of(channel) : Set.of());
            listener.on(channel, "q", () -> true, () -> { });
            listener.awaitChannels();
            assertFalse(present(channel), "listened on, not wanted yet");
            wanted.set(true);
            listener.awaitChannels();
            assertTrue(present(channel), "a producer would find the channel's listener present");
        }
    }

    /**
     * The callback of a reader that has ended is dropped at the listener's next round. It was kept for the life of the
     * process: consumers started and stopped again and again (a topic member per request, a queue moved between
     * shards) piled up in the listener, each run on every notification of its channel.
     */
    @Test
    void anEndedReadersCallbackIsDroppedAtTheNextRound() throws Exception {
        String channel = "dbq_test_ended_reader";
        AtomicBoolean readerAlive = new AtomicBoolean(true);
        AtomicInteger endedReaderRuns = new AtomicInteger();
        Semaphore liveReaderRuns = new Semaphore(0);
        try (ChannelListener listener = ChannelListener.start(TestDatabase.dataSource(), "dbq-test-listener")) {
            listener.on(channel, "q", readerAlive::get, endedReaderRuns::incrementAndGet);
            listener.on(channel, "q", () -> true, liveReaderRuns::release); // runs after the other, as added
            listener.awaitChannels();
            TestDatabase.execute("NOTIFY " + channel + ", 'q'");
            assertTrue(liveReaderRuns.tryAcquire(30, TimeUnit.SECONDS), "notified");
            assertEquals(1, endedReaderRuns.get(), "alive, it ran");
            readerAlive.set(false);
            listener.awaitChannels(); // a whole round began after this call
            TestDatabase.execute("NOTIFY " + channel + ", 'q'");
            assertTrue(liveReaderRuns.tryAcquire(30, TimeUnit.SECONDS), "notified again");
            assertEquals(1, endedReaderRuns.get(), "ended, it was dropped");
        }
    }

    /**
     * Every statement on the LISTEN session is bounded (a LISTEN or a presence lock on a connection a NAT dropped
     * without a reset waited about 15 minutes), and the pool gets its connection back with its own timeout.
     */
    @Test
    void theListeningSessionsStatementsAreBoundedAndThePoolsTimeoutRestored() throws Exception {
        DataSource target = TestDatabase.dataSource();
        AtomicReference<Integer> poolsTimeout = new AtomicReference<>();
        List<Integer> set = new CopyOnWriteArrayList<>(); // the network timeouts set on the listening connection
        DataSource recording = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{DataSource.class}, (self, method, args) -> {
                    Connection c = (Connection) invoke(method, target, args);
                    if (!poolsTimeout.compareAndSet(null, c.getNetworkTimeout())) {
                        return c; // not the first: the listening connection is
                    }
                    return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Connection.class},
                            (proxy, m, a) -> {
                                if (m.getName().equals("setNetworkTimeout")) {
                                    set.add((Integer) a[1]);
                                }
                                return invoke(m, c, a);
                            });
                });
        try (ChannelListener listener = ChannelListener.start(recording, "dbq-test-listener")) {
            assertTrue(listener.isListening());
        }
        assertEquals(List.of(10_000, poolsTimeout.get()), set);
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
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
