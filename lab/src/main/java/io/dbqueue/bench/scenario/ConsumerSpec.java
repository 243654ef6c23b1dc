package io.dbqueue.bench.scenario;

import io.dbqueue.DbQueue;
import io.dbqueue.queue.Layout;
import io.dbqueue.queue.QueueConfig;
import io.dbqueue.queue.QueueGroup;
import io.dbqueue.queue.QueueLimits;
import io.dbqueue.queue.QueueTable;
import io.dbqueue.queue.QueueWorkers;
import io.dbqueue.queue.RetryPolicy.RetryType;
import io.dbqueue.queue.RetryPolicy;
import javax.sql.DataSource;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The workers of one consumer process in a scenario run, in a form that crosses a command line
 * ({@link #toArgs}, {@link #fromArgs}) so that consumer processes start the same workers as the lab.
 *
 * @param groupCap with more than one queue name, the most workers on one queue at once
 * @param attempts the retry policy's attempts (geometric from {@code backoff}); 0 keeps the library's default
 * @param limitPerSecond the queue's rate limit, shared by every consumer process; 0: none
 */
record ConsumerSpec(String table, Layout layout, List<String> queueNames, int workers, int batchSize, String mode,
                    Duration work, int groupCap, int attempts, Duration backoff, double limitPerSecond, int limitBurst) {

    /**
     * Starts the workers through the library's front door, which also runs their wakeup listener when
     * the mode notifies and the vacuum of their table; they report to {@code events}. Closing the door
     * stops them.
     */
    Running start(DataSource dataSource, TaskEvents events) {
        QueueTable queueTable = new QueueTable(table, layout);
        WakeupSetting wakeup = WakeupSetting.parse(mode);
        QueueConfig config = QueueConfig.of(queueTable.queue(queueNames.get(0))).withThreads(workers)
                .withPoll(wakeup.poll(batchSize)).withWakeup(wakeup.wakeup());
        if (attempts > 0) {
            config = config.withRetry(RetryPolicy.of(RetryType.GEOMETRIC, backoff, attempts));
        }
        if (limitPerSecond > 0) {
            config = config.withLimits(QueueLimits.rate(limitPerSecond, limitBurst));
        }
        ScenarioHandler handler = new ScenarioHandler(work, config.retry(), events);
        DbQueue door = DbQueue.builder(dataSource).listener(handler).shutdownTimeout(Duration.ofSeconds(10)).build();
        QueueWorkers started = queueNames.size() == 1
                ? door.consume(config, handler)
                : door.consumeGroup(config, new QueueGroup(queueTable, queueNames, groupCap), handler);
        return new Running(door, started);
    }

    /** Started workers and the door that runs them. */
    record Running(DbQueue door, QueueWorkers workers) implements AutoCloseable {
        @Override
        public void close() {
            door.close();
        }
    }

    List<String> toArgs() {
        return List.of("table=" + table, "layout=" + layout.name(), "queues=" + String.join(",", queueNames),
                "workers=" + workers, "batch=" + batchSize, "mode=" + mode, "work-ms=" + work.toMillis(),
                "cap=" + groupCap, "attempts=" + attempts, "backoff-ms=" + backoff.toMillis(),
                "limit=" + limitPerSecond, "burst=" + limitBurst);
    }

    static ConsumerSpec fromArgs(String[] args) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("expected key=value, was '" + arg + "'");
            }
            values.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        return new ConsumerSpec(required(values, "table"), Layout.named(required(values, "layout")),
                Arrays.asList(required(values, "queues").split(",")), Integer.parseInt(required(values, "workers")),
                Integer.parseInt(required(values, "batch")), required(values, "mode"),
                Duration.ofMillis(Long.parseLong(required(values, "work-ms"))), Integer.parseInt(required(values, "cap")),
                Integer.parseInt(required(values, "attempts")),
                Duration.ofMillis(Long.parseLong(required(values, "backoff-ms"))),
                Double.parseDouble(required(values, "limit")), Integer.parseInt(required(values, "burst")));
    }

    private static String required(Map<String, String> values, String key) {
        String value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException("missing " + key + "=...");
        }
        return value;
    }
}
