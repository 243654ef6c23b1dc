package io.dbqueue.wakeup;

import io.dbqueue.internal.DaemonThreads;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One thread holding one connection (LISTEN needs a session: not through a transaction-mode pooler)
 * that listens on some channels and runs the callbacks registered for each channel and payload. If
 * the connection fails it reconnects with a growing pause and runs every callback after
 * reconnecting, since notifications sent in between are lost. Readers still poll: a notification
 * only cuts their wait.
 *
 * <p>It also announces, by {@link ListenerPresence} locks, the channels whose readers want
 * notifications right now, as a supplier tells it; a change is announced within {@link #PRESENCE_DELAY}.
 */
public final class ChannelListener implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ChannelListener.class);
    private static final int RECEIVE_TIMEOUT_MILLIS = 250;
    /** How long a change of the wanted channels takes at most to be announced. */
    public static final Duration PRESENCE_DELAY = Duration.ofMillis(RECEIVE_TIMEOUT_MILLIS);
    private static final Duration MAX_RECONNECT_PAUSE = Duration.ofSeconds(5);
    private static final Duration FIRST_ATTEMPT_TIMEOUT = Duration.ofSeconds(10);

    private final DataSource dataSource;
    private final Map<String, Map<String, List<Runnable>>> byChannelAndPayload;
    private final Supplier<Set<String>> wanted;
    private final Set<String> announced = new HashSet<>();
    private final Thread thread;
    private final CountDownLatch firstAttempt = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile boolean listening;

    private ChannelListener(DataSource dataSource, Map<String, Map<String, List<Runnable>>> byChannelAndPayload,
                            Supplier<Set<String>> wanted, String threadName) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.byChannelAndPayload = Map.copyOf(byChannelAndPayload);
        this.wanted = Objects.requireNonNull(wanted, "wanted");
        this.thread = DaemonThreads.named(threadName).newThread(this::run);
    }

    /**
     * Starts listening on the channels of {@code byChannelAndPayload} (channel names must come from
     * validated identifiers). Returns once listening, or once the first attempt has failed (it is
     * retried in the background), or after 10 seconds.
     */
    public static ChannelListener start(DataSource dataSource, Map<String, Map<String, List<Runnable>>> byChannelAndPayload,
                                        String threadName) {
        return start(dataSource, byChannelAndPayload, Set::of, threadName);
    }

    /** As {@link #start(DataSource, Map, String)}, announcing the channels {@code wanted} names. */
    public static ChannelListener start(DataSource dataSource, Map<String, Map<String, List<Runnable>>> byChannelAndPayload,
                                        Supplier<Set<String>> wanted, String threadName) {
        ChannelListener listener = new ChannelListener(dataSource, byChannelAndPayload, wanted, threadName);
        listener.thread.start();
        try {
            listener.firstAttempt.await(FIRST_ATTEMPT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return listener;
    }

    /** Whether the LISTEN session is established right now. */
    public boolean isListening() {
        return listening;
    }

    private void run() {
        long pauseMillis = 100;
        while (running) {
            try (Connection c = dataSource.getConnection()) {
                try {
                    listen(c);
                    firstAttempt.countDown();
                    pauseMillis = 100;
                    receive(c);
                } finally {
                    announced.clear();
                    unlistenQuietly(c); // a pool must not hand out a connection that still collects notifications
                }
            } catch (SQLException | RuntimeException e) {
                if (running) {
                    LOG.warn("{}: listening failed, retrying in {} ms (readers keep polling): {}", thread.getName(),
                            pauseMillis, e.getMessage());
                }
            } finally {
                listening = false;
                firstAttempt.countDown();
            }
            if (!pause(pauseMillis)) {
                return;
            }
            pauseMillis = Math.min(pauseMillis * 2, MAX_RECONNECT_PAUSE.toMillis());
        }
    }

    private void listen(Connection c) throws SQLException {
        c.setAutoCommit(true);
        try (Statement st = c.createStatement()) {
            for (String channel : byChannelAndPayload.keySet()) {
                st.execute("LISTEN " + channel);
            }
        }
        announce(c);
        listening = true;
        // anything notified while not listening was missed
        byChannelAndPayload.values().forEach(byPayload -> byPayload.values().forEach(l -> l.forEach(Runnable::run)));
    }

    private static void unlistenQuietly(Connection c) {
        try (Statement st = c.createStatement()) {
            st.execute("UNLISTEN *");
            c.unwrap(PGConnection.class).getNotifications(); // drops what arrived but was not read
        } catch (SQLException e) {
            LOG.debug("UNLISTEN failed on a connection being given back: {}", e.getMessage());
        }
        try {
            ListenerPresence.releaseAll(c);
        } catch (SQLException e) {
            LOG.debug("releasing the presence locks failed on a connection being given back: {}", e.getMessage());
        }
    }

    /** Takes the presence locks of newly wanted channels and gives back those of channels no longer wanted. */
    private void announce(Connection c) throws SQLException {
        Set<String> now = wanted.get();
        for (String channel : now) {
            if (!announced.contains(channel)) {
                ListenerPresence.hold(c, channel);
                announced.add(channel);
            }
        }
        for (Iterator<String> it = announced.iterator(); it.hasNext(); ) {
            String channel = it.next();
            if (!now.contains(channel)) {
                ListenerPresence.release(c, channel);
                it.remove();
            }
        }
    }

    private void receive(Connection c) throws SQLException {
        PGConnection connection = c.unwrap(PGConnection.class);
        while (running) {
            announce(c);
            PGNotification[] notifications = connection.getNotifications(RECEIVE_TIMEOUT_MILLIS);
            if (notifications == null) {
                continue;
            }
            for (PGNotification n : notifications) {
                byChannelAndPayload.getOrDefault(n.getName(), Map.of()).getOrDefault(n.getParameter(), List.of())
                        .forEach(Runnable::run);
            }
        }
    }

    private boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return running;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Stops listening. */
    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(5).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
