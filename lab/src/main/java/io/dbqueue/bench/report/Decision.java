package io.dbqueue.bench.report;

import io.dbqueue.bench.answer.AnswerPlan;
import io.dbqueue.bench.answer.AnswerResults;
import io.dbqueue.bench.answer.AnswerShape;
import io.dbqueue.bench.answer.AnswerSystem;
import io.dbqueue.bench.answer.Ceiling;
import io.dbqueue.bench.answer.RateStep;
import io.dbqueue.bench.answer.Sweep;
import io.dbqueue.bench.run.Range;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

import static io.dbqueue.bench.answer.AnswerSystem.KAFKA_1_GROUP;
import static io.dbqueue.bench.answer.AnswerSystem.KAFKA_FSYNC_1_GROUP;
import static io.dbqueue.bench.answer.AnswerSystem.LOG_1_GROUP;
import static io.dbqueue.bench.answer.AnswerSystem.NATS_JETSTREAM;
import static io.dbqueue.bench.answer.AnswerSystem.QUEUE_AT_LEAST_ONCE;
import static io.dbqueue.bench.report.AnswerFigures.capacity;
import static io.dbqueue.bench.report.AnswerFigures.number;

/**
 * The answer in words, written from one run's numbers: up to which rate PostgreSQL is enough at
 * the headline target, what each broker adds beyond it, and what each costs per message. PostgreSQL is
 * weighed against the brokers that also flush before they acknowledge; one that does not is named apart,
 * saying so. Capacities are rates of the sweep's ladder, so they are given as they are, never divided
 * into ratios that the ladder's steps would make up.
 */
public final class Decision {

    static final int HEADLINE_SIZE = 1024;
    static final int HEADLINE_BATCH = 100;

    private Decision() {
    }

    public static List<String> of(AnswerResults results) {
        int target = AnswerPlan.HEADLINE_TARGET_MS;
        List<String> text = new ArrayList<>();
        for (AnswerShape shape : results.shapes()) {
            workQueues(results, shape, target).ifPresent(text::add);
            ceiling(results, shape).ifPresent(text::add);
            if (shape.messageSize() == HEADLINE_SIZE && shape.batchSize() == HEADLINE_BATCH) {
                topics(results, target).ifPresent(text::add);
            } else if (shape.systems().stream().anyMatch(s -> s.kind() == AnswerSystem.Kind.TOPIC)) {
                text.add("For a topic with " + shape.title() + ": "
                        + holds(results, shape, target, AnswerSystem.Kind.TOPIC) + " messages/s.");
            }
        }
        costs(results).ifPresent(text::add);
        if (results.sweeps().stream().anyMatch(s -> s.system() == NATS_JETSTREAM && s.measured())) {
            text.add("NATS JetStream acknowledges a message once it is written to its file, not flushed: it syncs to"
                    + " disk every two minutes by default, so a power loss can lose what it acknowledged. PostgreSQL and"
                    + " RabbitMQ acknowledge after the flush, as Kafka does when it flushes every message.");
        }
        return text;
    }

    /**
     * In one shape, the queue against the work-queue brokers: in the delivery mode that holds the most here (at
     * least once on a tie), as a user free to choose the mode would run it.
     */
    private static Optional<String> workQueues(AnswerResults results, AnswerShape shape, int target) {
        Optional<Sweep> strongest = workQueueSweeps(results, shape, true).stream()
                .reduce((a, b) -> b.capacity(target) > a.capacity(target) ? b : a);
        if (strongest.isEmpty()) {
            return Optional.empty();
        }
        Sweep queue = strongest.get();
        String postgres = queue.system() == QUEUE_AT_LEAST_ONCE ? "PostgreSQL" : "PostgreSQL's queue "
                + queue.system().mode().name().toLowerCase(Locale.ROOT).replace('_', ' ');
        List<Sweep> brokers = workQueueSweeps(results, shape, false);
        String all = "With " + shape.title() + " at p99 ≤ " + target + " ms: "
                + holds(results, shape, target, AnswerSystem.Kind.WORK_QUEUE) + " messages/s.";
        if (brokers.isEmpty()) {
            List<String> skipped = results.sweeps().stream().filter(s -> s.shape().equals(shape) && !s.measured()
                    && s.system().kind() == AnswerSystem.Kind.WORK_QUEUE).map(s -> s.system().label()).toList();
            return Optional.of(all + " No broker was measured to compare with"
                    + (skipped.isEmpty() ? "" : " (not measured: " + String.join(", ", skipped) + ")") + ".");
        }
        int ours = queue.capacity(target);
        String lowest = number(shape.rates().get(0));
        List<Sweep> durable = brokers.stream().filter(s -> s.system().flushesBeforeAcknowledging()).toList();
        String verdict = durable.isEmpty() ? " " + postgres + " holds " + capacity(queue, target) + " messages/s here; no"
                + " broker that also flushes before it acknowledges was measured to compare with." : "";
        if (!durable.isEmpty()) {
            Sweep best = durable.stream().max(Comparator.comparingInt(s -> s.capacity(target))).orElseThrow();
            int theirs = best.capacity(target);
            if (ours == 0 && theirs == 0) {
                verdict = " None of them holds " + lowest + " messages/s within the target on this machine.";
            } else if (ours >= theirs) {
                verdict = " " + postgres + " is enough up to " + capacity(queue, target) + " messages/s here"
                        + spread(queue, target) + ": no broker"
                        + " measured that also flushes before it acknowledges holds more at this target.";
            } else {
                verdict = (ours == 0 ? " " + postgres + " misses the target already at " + lowest + " messages/s; "
                        : " " + postgres + " is enough up to " + capacity(queue, target) + " messages/s here"
                        + spread(queue, target) + "; beyond that ")
                        + best.system().label() + " holds " + capacity(best, target) + spread(best, target) + ".";
            }
        }
        String unflushed = brokers.stream().filter(s -> !s.system().flushesBeforeAcknowledging()
                        && s.capacity(target) > ours).map(s -> s.system().label() + " holds " + capacity(s, target)
                        + " but acknowledges before its data is on disk")
                .collect(Collectors.joining("; "));
        return Optional.of(all + verdict + (unflushed.isEmpty() ? "" : " " + unflushed + "."));
    }

    /**
     * The queue's most delivered against PostgreSQL's own pgbench running flat out (a minimal queue, or in older runs
     * the queue's statements), in the same run: how much of what the server can do the library reaches. Both are
     * measured rates, not rates of the ladder.
     */
    private static Optional<String> ceiling(AnswerResults results, AnswerShape shape) {
        Ceiling ceiling = results.ceiling(shape);
        if (ceiling == null) {
            return Optional.empty();
        }
        if (!ceiling.measured()) {
            return Optional.of("The ceiling of " + shape.title() + " (PostgreSQL's own pgbench) was not measured: "
                    + ceiling.note() + ".");
        }
        Sweep queue = results.sweep(Ceiling.OF, shape.messageSize(), shape.batchSize());
        CeilingWords words = CeilingWords.of(ceiling);
        String flatOut = "PostgreSQL's own client, pgbench, running " + words.ran + " flat out on the same server, "
                + words.same + ", delivered " + number(ceiling.delivered()) + " messages/s"
                + spread(ceiling.step().delivered());
        OptionalDouble reached = ceiling.percentReached(queue);
        if (reached.isEmpty()) {
            return Optional.of(flatOut + ".");
        }
        String mode = Ceiling.OF.mode().name().toLowerCase(Locale.ROOT).replace('_', ' ');
        String most = number(queue.saturation().orElseThrow());
        double percent = reached.getAsDouble();
        return Optional.of(flatOut + String.format(Locale.ROOT, queue.saturated()
                ? "; the queue, %s, delivered at most %s: %.0f %% of pgbench's rate."
                : "; the queue, %s, delivered %s before its sweep ended, short of its limit: %.0f %% or more of"
                + " pgbench's rate.", mode, most, percent)
                + (percent <= 100 ? "" : " Over 100 %: " + words.outran));
    }

    /** " (runs 33,120-35,870)" for a figure run more than once, else "". */
    private static String spread(Range range) {
        return range.min() == range.max() ? "" : " (runs " + number(range.min()) + "-" + number(range.max()) + ")";
    }

    /** The measured work-queue sweeps of the shape on PostgreSQL ({@code onPostgres}) or on a broker. */
    private static List<Sweep> workQueueSweeps(AnswerResults results, AnswerShape shape, boolean onPostgres) {
        return shape.systems().stream().filter(s -> s.onPostgres() == onPostgres
                        && s.kind() == AnswerSystem.Kind.WORK_QUEUE)
                .map(s -> results.sweep(s, shape.messageSize(), shape.batchSize())).filter(Objects::nonNull)
                .filter(Sweep::measured).toList();
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
                    : " With one group Kafka flushing every message holds " + capacity(fsync, target) + ".");
        }
        if (osFlush != null && osFlush.measured() && osFlush.capacity(target) > log.capacity(target)) {
            text.append(" Kafka with the OS flushing holds ").append(capacity(osFlush, target))
                    .append(", acknowledging before the data is on disk.");
        }
        text.append(" The log's latency ends in the read handler, before its offset commit; Kafka's after its"
                + " consumer's offset commit.");
        return Optional.of(text.toString());
    }

    /** CPU and bytes written per message at the rate every system of the headline shape kept up, one group each. */
    private static Optional<String> costs(AnswerResults results) {
        Sweep queue = results.sweep(QUEUE_AT_LEAST_ONCE, HEADLINE_SIZE, HEADLINE_BATCH);
        if (queue == null) {
            return Optional.empty();
        }
        int rate = AnswerFigures.commonRate(results, queue.shape());
        List<String> parts = new ArrayList<>();
        for (Sweep sweep : results.sweeps()) {
            RateStep step = sweep.keptUpAt(rate);
            if (sweep.shape().equals(queue.shape()) && sweep.system().groups() == 1 && step != null
                    && step.serverCpuUs() != null) {
                parts.add(sweep.system().label() + " " + AnswerTable.micros(step.serverCpuUs().median())
                        + (step.writtenBytes() == null ? "" : " and " + AnswerTable.bytes(step.writtenBytes().median())));
            }
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of("Per message at " + number(rate) + " messages/s ("
                + queue.shape().title() + ", one group), the server's CPU and what it wrote (PostgreSQL: its WAL;"
                + " a broker: its process's writes to disk): " + String.join("; ", parts) + ".");
    }

    /**
     * Where the runs that decide a capacity fell on both sides of the target: " (at 40,000 its runs' p99 were
     * 12.3-197.6 ms, on both sides of the target)", so that a capacity one run decided reads as such; else "".
     */
    private static String spread(Sweep sweep, int target) {
        RateStep split = sweep.straddled(target);
        return split == null ? "" : String.format(Locale.ROOT, " (at %s its runs' p99 were %.1f-%.1f ms, on both"
                + " sides of the target)", number(split.offered()), split.p99Ms().min(), split.p99Ms().max());
    }

    /** "PostgreSQL queue, at least once 20,000, RabbitMQ classic queue 5,000, ..." for the shape's systems of {@code kind}. */
    private static String holds(AnswerResults results, AnswerShape shape, int target, AnswerSystem.Kind kind) {
        return shape.systems().stream().filter(s -> s.kind() == kind)
                .map(s -> results.sweep(s, shape.messageSize(), shape.batchSize())).filter(Objects::nonNull)
                .filter(Sweep::measured)
                .map(s -> s.system().label() + " " + capacity(s, target))
                .collect(Collectors.joining(", "));
    }
}
