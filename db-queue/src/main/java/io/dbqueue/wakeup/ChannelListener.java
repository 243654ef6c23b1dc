package io.dbqueue.wakeup;

import io.dbqueue.internal.DaemonThreads;
import io.dbqueue.internal.Jdbc;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One thread holding one connection (LISTEN needs a session: not through a transaction-mode pooler)
 * that listens on some channels and runs the callbacks registered for each channel and payload. If
 * the connection fails it reconnects with a growing pause and runs every callback after
 * reconnecting, since notifications sent in between are lost. Readers still poll: a notification
 * only cuts their wait. Channels and callbacks may be added while it runs, so that one connection
 * serves readers started at different times.
 *
 * <p>It also announces, by {@link ListenerPresence} locks, the channels whose readers want
 * notifications right now, as a supplier tells it; a change is announced within {@link #PRESENCE_DELAY}.
 */
public final class ChannelListener implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ChannelListener.class);
    private static final int RECEIVE_TIMEOUT_MILLIS = 250;
    /** How often the receiving connection is checked for an answer, and how long the check waits. */
    private static final Duration LIVENESS_CHECK = Duration.ofSeconds(10);
    /** How long a change of the wanted channels takes at most to be announced. */
    public static final Duration PRESENCE_DELAY = Duration.ofMillis(RECEIVE_TIMEOUT_MILLIS);
    private static final Duration MAX_RECONNECT_PAUSE = Duration.ofSeconds(5);
    private static final Duration FIRST_ATTEMPT_TIMEOUT = Duration.ofSeconds(10);

    private final DataSource dataSource;
    private final Map<String, Map<String, List<Callback>>> byChannelAndPayload = new ConcurrentHashMap<>();
    private final List<Supplier<Set<String>>> wanted = new CopyOnWriteArrayList<>();
    private final Set<String> listened = new HashSet<>(); // by the listening thread only
    private final Set<String> announced = new HashSet<>();
    private final Thread thread;
    /** A channel of this listener's own, notified to cut its wait for notifications short: a round begins at once. */
    private final String wakeChannel = "dbq_wake_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
    private final CountDownLatch firstAttempt = new CountDownLatch(1);
    private final Object rounds = new Object();
    private long roundsAsked; // guarded by rounds: calls of awaitChannels so far
    private long roundsDone; // guarded by rounds: of those, how many a round of LISTEN and announce began after
    private volatile boolean running = true;
    private volatile boolean listening;

    private ChannelListener(DataSource dataSource, String threadName) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.thread = DaemonThreads.named(threadName).newThread(this::run);
    }

    /**
     * Starts the listening thread, on no channel yet ({@link #on} adds them). Returns once listening,
     * or once the first attempt has failed (it is retried in the background), or after 10 seconds.
     */
    public static ChannelListener start(DataSource dataSource, String threadName) {
        ChannelListener listener = new ChannelListener(dataSource, threadName);
        listener.thread.start();
        try {
            listener.firstAttempt.await(FIRST_ATTEMPT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return listener;
    }

    /**
     * Runs {@code callback} for each notification on {@code channel} (its name must come from a
     * validated identifier) with {@code payload}, and after each reconnect, for as long as {@code alive} says so: the
     * callback of a reader that has ended is dropped at the next round, so that readers started and stopped for the
     * life of a process do not pile up here. A new channel is listened on within {@link #PRESENCE_DELAY};
     * {@link #awaitChannels} waits for that.
     */
    public void on(String channel, String payload, BooleanSupplier alive, Runnable callback) {
        Map<String, List<Callback>> byPayload = byChannelAndPayload.get(channel);
        if (byPayload == null) {
            Map<String, List<Callback>> fresh = new ConcurrentHashMap<>();
            byPayload = byChannelAndPayload.putIfAbsent(channel, fresh);
            if (byPayload == null) {
                byPayload = fresh;
            }
        }
        byPayload.computeIfAbsent(payload, p -> new CopyOnWriteArrayList<>()).add(new Callback(alive, callback));
    }

    /**
     * Returns once the session listens on every channel given to {@link #on} so far and has announced those
     * wanted ({@link #announce}) as they are now, or at once while there is no session (a reconnect listens on them
     * all), or after 10 seconds. It waits for a whole round that began after the call, within
     * {@link #PRESENCE_DELAY} or so: a channel already listened on may be newly wanted, by readers added to it.
     */
    public void awaitChannels() {
        long deadline = System.nanoTime() + FIRST_ATTEMPT_TIMEOUT.toNanos();
        long asked;
        synchronized (rounds) {
            if (!listening) {
                return;
            }
            asked = ++roundsAsked;
        }
        wake();
        synchronized (rounds) {
            try {
                for (long left = deadline - System.nanoTime(); listening && roundsDone < asked && left > 0;
                     left = deadline - System.nanoTime()) {
                    TimeUnit.NANOSECONDS.timedWait(rounds, left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Announces, by {@link ListenerPresence} locks, the channels {@code channels} names whenever asked:
     * those whose readers want notifications right now. A change is announced within {@link #PRESENCE_DELAY}.
     */
    public void announce(Supplier<Set<String>> channels) {
        wanted.add(Objects.requireNonNull(channels, "channels"));
    }

    /** Whether the LISTEN session is established right now. */
    public boolean isListening() {
        return listening;
    }

    private void run() {
        long pauseMillis = 100;
        while (running) {
            try (Connection c = dataSource.getConnection()) {
                int poolsTimeout = c.getNetworkTimeout();
                try {
                    // Every statement on the session is bounded, as its liveness check is: on a connection a NAT
                    // dropped without a reset, a LISTEN or a presence lock would otherwise wait for the kernel to give
                    // up retransmitting (about 15 minutes), and no wakeup would come meanwhile.
                    c.setNetworkTimeout(Runnable::run, (int) LIVENESS_CHECK.toMillis());
                    listen(c);
                    firstAttempt.countDown();
                    pauseMillis = 100;
                    receive(c);
                } finally {
                    announced.clear();
                    listened.clear();
                    unlistenQuietly(c); // a pool must not hand out a connection that still collects notifications
                    restoreQuietly(c, poolsTimeout);
                }
            } catch (SQLException | RuntimeException e) {
                if (running) {
                    LOG.warn("{}: listening failed, retrying in {} ms (readers keep polling): {}", thread.getName(),
                            pauseMillis, e.getMessage());
                }
            } finally {
                listening = false;
                firstAttempt.countDown();
                synchronized (rounds) {
                    rounds.notifyAll(); // nobody waits for a session that is gone
                }
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
            st.execute("LISTEN " + wakeChannel);
        }
        listenNewChannels(c);
        listening = true;
        // anything notified while not listening was missed
        byChannelAndPayload.values().forEach(byPayload -> byPayload.values().forEach(l -> l.forEach(Callback::run)));
    }

    /**
     * Drops the callbacks of readers that have ended, LISTENs on the channels added since the last call and announces
     * the wanted ones, then tells those waiting for them: only then does a producer's notification reach them, since
     * it is sent only to a channel whose presence is announced.
     */
    private void listenNewChannels(Connection c) throws SQLException {
        long asked;
        synchronized (rounds) { // the calls of awaitChannels this round began after
            asked = roundsAsked;
        }
        byChannelAndPayload.values().forEach(byPayload -> byPayload.values().forEach(l -> l.removeIf(Callback::ended)));
        try (Statement st = c.createStatement()) {
            for (String channel : byChannelAndPayload.keySet()) {
                if (listened.add(channel)) {
                    st.execute("LISTEN " + channel);
                }
            }
        }
        announce(c);
        synchronized (rounds) {
            roundsDone = asked;
            rounds.notifyAll();
        }
    }

    /**
     * Cuts the listening thread's wait for notifications short, so that a round begins at once rather than within
     * {@link #PRESENCE_DELAY}; when the notification cannot be sent, the round comes in that time all the same.
     */
    private void wake() {
        try {
            Jdbc.autoCommitted(dataSource, "wake the listener", c -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, '')")) {
                    ps.setString(1, wakeChannel);
                    ps.execute();
                }
                return null;
            });
        } catch (RuntimeException e) {
            LOG.debug("waking {} failed; its next round comes within {}: {}", thread.getName(), PRESENCE_DELAY,
                    e.getMessage());
        }
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

    private static void restoreQuietly(Connection c, int networkTimeout) {
        try {
            c.setNetworkTimeout(Runnable::run, networkTimeout);
        } catch (SQLException e) {
            LOG.debug("restoring the network timeout failed on a connection being given back: {}", e.getMessage());
        }
    }

    /** Takes the presence locks of newly wanted channels and gives back those of channels no longer wanted. */
    private void announce(Connection c) throws SQLException {
        Set<String> now = new HashSet<>();
        wanted.forEach(channels -> now.addAll(channels.get()));
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
        long checkAt = System.nanoTime() + LIVENESS_CHECK.toNanos();
        while (running) {
            listenNewChannels(c);
            if (System.nanoTime() - checkAt >= 0) {
                // Receiving only reads: a connection a NAT or load balancer dropped without a reset would look
                // quiet forever, with every wakeup lost. A round trip, bounded by isValid's timeout, finds it out.
                if (!c.isValid((int) LIVENESS_CHECK.toSeconds())) {
                    throw new SQLException("the LISTEN connection did not answer a check within " + LIVENESS_CHECK);
                }
                checkAt = System.nanoTime() + LIVENESS_CHECK.toNanos();
            }
            PGNotification[] notifications = connection.getNotifications(RECEIVE_TIMEOUT_MILLIS);
            if (notifications == null) {
                continue;
            }
            for (PGNotification n : notifications) {
                byChannelAndPayload.getOrDefault(n.getName(), Map.of()).getOrDefault(n.getParameter(), List.of())
                        .forEach(Callback::run);
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

    /** A reader's callback, kept while the reader is alive. */
    private record Callback(BooleanSupplier alive, Runnable action) {

        void run() {
            action.run();
        }

        boolean ended() {
            return !alive.getAsBoolean();
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
