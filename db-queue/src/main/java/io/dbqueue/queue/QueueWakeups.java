package io.dbqueue.queue;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Wakes idle workers when a {@link QueueNotifier} says their queue has new tasks, so that consumers
 * can poll rarely (a long no-task timeout) and still pick up new work within milliseconds.
 *
 * <p>One thread holds one connection (LISTEN needs a session: not through a transaction-mode pooler)
 * listening on the channels of the given workers' tables. If the connection fails it reconnects
 * with a growing pause, and wakes every worker after reconnecting, since notifications sent in
 * between are lost. Polling stays the guarantee; wakeups only cut the wait.
 */
public final class QueueWakeups implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QueueWakeups.class);
    private static final int RECEIVE_TIMEOUT_MILLIS = 500;
    private static final Duration MAX_RECONNECT_PAUSE = Duration.ofSeconds(5);
    private static final Duration FIRST_ATTEMPT_TIMEOUT = Duration.ofSeconds(10);

    private final DataSource dataSource;
    private final List<QueueWorkers> all;
    private final Map<String, Map<String, List<QueueWorkers>>> byChannelAndQueue = new HashMap<>();
    private final Thread thread;
    private final CountDownLatch firstAttempt = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile boolean listening;

    private QueueWakeups(DataSource dataSource, Collection<QueueWorkers> workers) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.all = List.copyOf(workers);
        for (QueueWorkers w : all) {
            QueueLocation q = w.config().location();
            byChannelAndQueue.computeIfAbsent(WakeupChannel.of(q.table()), c -> new HashMap<>())
                    .computeIfAbsent(q.queueName(), n -> new ArrayList<>()).add(w);
        }
        this.thread = new Thread(this::run, "dbq-wakeups");
        thread.setDaemon(true);
    }

    /**
     * Starts listening for the queues of {@code workers}. Returns once listening, or once the first
     * attempt has failed (it is retried in the background), or after 10 seconds.
     */
    public static QueueWakeups start(DataSource dataSource, Collection<QueueWorkers> workers) {
        QueueWakeups wakeups = new QueueWakeups(dataSource, workers);
        wakeups.thread.start();
        try {
            wakeups.firstAttempt.await(FIRST_ATTEMPT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return wakeups;
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
                    receive(c.unwrap(PGConnection.class));
                } finally {
                    unlistenQuietly(c); // a pool must not hand out a connection that still collects notifications
                }
            } catch (SQLException | RuntimeException e) {
                if (running) {
                    LOG.warn("wakeups: listening failed, retrying in {} ms (workers keep polling): {}", pauseMillis,
                            e.getMessage());
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
            for (String channel : byChannelAndQueue.keySet()) {
                st.execute("LISTEN " + channel); // channel names are built from validated table names
            }
        }
        listening = true;
        // anything notified while not listening was missed
        all.forEach(QueueWorkers::wakeup);
    }

    private static void unlistenQuietly(Connection c) {
        try (Statement st = c.createStatement()) {
            st.execute("UNLISTEN *");
            c.unwrap(PGConnection.class).getNotifications(); // drops what arrived but was not read
        } catch (SQLException e) {
            LOG.debug("wakeups: UNLISTEN failed on a connection being given back: {}", e.getMessage());
        }
    }

    private void receive(PGConnection connection) throws SQLException {
        while (running) {
            PGNotification[] notifications = connection.getNotifications(RECEIVE_TIMEOUT_MILLIS);
            if (notifications == null) {
                continue;
            }
            for (PGNotification n : notifications) {
                List<QueueWorkers> workers = byChannelAndQueue.getOrDefault(n.getName(), Map.of())
                        .getOrDefault(n.getParameter(), List.of());
                workers.forEach(QueueWorkers::wakeup);
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

    /** Stops listening; the workers go on polling. */
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
