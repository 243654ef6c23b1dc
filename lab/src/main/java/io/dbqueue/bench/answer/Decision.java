package io.dbqueue.bench.answer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

import static io.dbqueue.bench.answer.AnswerSystem.KAFKA_1_GROUP;
import static io.dbqueue.bench.answer.AnswerSystem.KAFKA_FSYNC_1_GROUP;
import static io.dbqueue.bench.answer.AnswerSystem.LOG_1_GROUP;
import static io.dbqueue.bench.answer.AnswerSystem.NATS_JETSTREAM;
import static io.dbqueue.bench.answer.AnswerSystem.QUEUE_AT_LEAST_ONCE;
import static io.dbqueue.bench.answer.Capacities.capacity;
import static io.dbqueue.bench.answer.Capacities.number;

/**
 * The answer in words, written from one run's numbers: up to which rate PostgreSQL is enough at
 * the headline target, what each broker adds beyond it, and what each costs per message.
 */
public final class Decision {

    static final int HEADLINE_SIZE = 1024;
    static final int HEADLINE_BATCH = 100;

    private Decision() {
    }

    public static List<String> of(AnswerResults results) {
        int target = AnswerPlan.HEADLINE_TARGET_MS;
        List<String> text = new ArrayList<>();
        workQueues(results, target).ifPresent(text::add);
        topics(results, target).ifPresent(text::add);
        for (AnswerShape shape : results.shapes()) {
            if (shape.messageSize() != HEADLINE_SIZE || shape.batchSize() != HEADLINE_BATCH) {
                text.add("With " + shape.title() + " at p99 ≤ " + target + " ms: " + holds(results, shape, target)
                        + ".");
            }
        }
        costs(results).ifPresent(text::add);
        if (results.sweeps().stream().anyMatch(s -> s.system() == NATS_JETSTREAM && s.measured())) {
            text.add("NATS JetStream acknowledges a message once it is written to its file, not flushed: it syncs to"
                    + " disk every two minutes by default, so a power loss can lose what it acknowledged. PostgreSQL,"
                    + " RabbitMQ's quorum queue and Kafka with a flush per message acknowledge after the flush.");
        }
        return text;
    }

    /** The headline: the queue against the work-queue brokers. */
    private static Optional<String> workQueues(AnswerResults results, int target) {
        Sweep queue = results.sweep(QUEUE_AT_LEAST_ONCE, HEADLINE_SIZE, HEADLINE_BATCH);
        if (queue == null || !queue.measured()) {
            return Optional.empty();
        }
        AnswerShape shape = queue.shape();
        List<Sweep> brokers = shape.systems().stream().filter(s -> !s.onPostgres()
                        && s.kind() == AnswerSystem.Kind.WORK_QUEUE)
                .map(s -> results.sweep(s, HEADLINE_SIZE, HEADLINE_BATCH)).filter(Objects::nonNull)
                .filter(Sweep::measured).toList();
        String all = "With " + shape.title() + " at p99 ≤ " + target + " ms, on this machine: "
                + holds(results, shape, target, AnswerSystem.Kind.WORK_QUEUE) + " messages/s.";
        if (brokers.isEmpty()) {
            return Optional.of(all + " No broker was reachable to compare with.");
        }
        Sweep best = brokers.stream().max(Comparator.comparingInt(s -> s.capacity(target))).orElseThrow();
        int ours = queue.capacity(target);
        int theirs = best.capacity(target);
        String lowest = number(shape.rates().get(0));
        String verdict;
        if (ours == 0 && theirs == 0) {
            verdict = " None of them holds " + lowest + " messages/s within the target on this machine.";
        } else if (ours >= theirs) {
            verdict = " PostgreSQL is enough up to " + capacity(queue, target) + " messages/s here: no broker measured"
                    + " holds more at this target.";
        } else {
            verdict = (ours == 0 ? " PostgreSQL's queue misses the target already at " + lowest + " messages/s; "
                    : " PostgreSQL is enough up to " + capacity(queue, target) + " messages/s here; beyond that ")
                    + best.system().label() + " holds " + capacity(best, target) + ratio(theirs, ours) + ".";
        }
        return Optional.of(all + verdict);
    }

    /** The log against Kafka, one group each. */
    private static Optional<String> topics(AnswerResults results, int target) {
        Sweep log = results.sweep(LOG_1_GROUP, HEADLINE_SIZE, HEADLINE_BATCH);
        if (log == null || !log.measured()) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder("For a topic: "
                + holds(results, log.shape(), target, AnswerSystem.Kind.TOPIC) + " messages/s.");
        Sweep fsync = results.sweep(KAFKA_FSYNC_1_GROUP, HEADLINE_SIZE, HEADLINE_BATCH);
        Sweep osFlush = results.sweep(KAFKA_1_GROUP, HEADLINE_SIZE, HEADLINE_BATCH);
        if (fsync != null && fsync.measured()) {
            text.append(log.capacity(target) >= fsync.capacity(target)
                    ? " With one group the log holds at least as much as Kafka flushing every message."
                    : " With one group Kafka flushing every message holds " + capacity(fsync, target)
                    + ratio(fsync.capacity(target), log.capacity(target)) + ".");
        }
        if (osFlush != null && osFlush.measured() && osFlush.capacity(target) > log.capacity(target)) {
            text.append(" Kafka with the OS flushing holds ").append(capacity(osFlush, target))
                    .append(ratio(osFlush.capacity(target), log.capacity(target)))
                    .append(", acknowledging before the data is on disk.");
        }
        return Optional.of(text.toString());
    }

    /** CPU and disk per message at each system's highest sustained rate, in the headline shape. */
    private static Optional<String> costs(AnswerResults results) {
        List<String> parts = new ArrayList<>();
        for (Sweep sweep : results.sweeps()) {
            RateStep step = Capacities.costStep(sweep);
            if (sweep.shape().messageSize() != HEADLINE_SIZE || sweep.shape().batchSize() != HEADLINE_BATCH
                    || sweep.system().groups() != 1 || step == null || step.serverCpuUs() == null) {
                continue;
            }
            parts.add(sweep.system().label() + " " + String.format(Locale.ROOT, "%.0f µs", step.serverCpuUs().median())
                    + (step.writtenBytes() == null ? "" : " and " + number(step.writtenBytes().median()) + " bytes"));
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of("Per message, at each system's"
                + " highest rate kept up (" + HEADLINE_SIZE / 1024 + " KiB, batch " + HEADLINE_BATCH + ", one group),"
                + " the server spent CPU and wrote to disk: " + String.join("; ", parts) + ".");
    }

    private static String holds(AnswerResults results, AnswerShape shape, int target) {
        return holds(results, shape, target, null);
    }

    /** "PostgreSQL queue, at least once holds 20,000, RabbitMQ classic queue 5,000, ..." for the shape's systems of {@code kind} (all when null). */
    private static String holds(AnswerResults results, AnswerShape shape, int target, AnswerSystem.Kind kind) {
        return shape.systems().stream().filter(s -> kind == null || s.kind() == kind)
                .map(s -> results.sweep(s, shape.messageSize(), shape.batchSize())).filter(Objects::nonNull)
                .filter(Sweep::measured)
                .map(s -> s.system().label() + " " + capacity(s, target))
                .collect(Collectors.joining(", "));
    }

    /** " (2.5 times as much)", or nothing when the smaller side is 0. */
    private static String ratio(int larger, int smaller) {
        return smaller <= 0 ? "" : String.format(Locale.ROOT, " (%.1f times as much)", (double) larger / smaller);
    }
}
