package io.dbqueue.bench.answer;

import java.time.Duration;
import java.util.List;

import static io.dbqueue.bench.answer.AnswerSystem.KAFKA_1_GROUP;
import static io.dbqueue.bench.answer.AnswerSystem.KAFKA_5_GROUPS;
import static io.dbqueue.bench.answer.AnswerSystem.KAFKA_FSYNC_1_GROUP;
import static io.dbqueue.bench.answer.AnswerSystem.KAFKA_FSYNC_5_GROUPS;
import static io.dbqueue.bench.answer.AnswerSystem.LOG_1_GROUP;
import static io.dbqueue.bench.answer.AnswerSystem.LOG_5_GROUPS;
import static io.dbqueue.bench.answer.AnswerSystem.NATS_JETSTREAM;
import static io.dbqueue.bench.answer.AnswerSystem.QUEUE_AT_LEAST_ONCE;
import static io.dbqueue.bench.answer.AnswerSystem.QUEUE_EXACTLY_ONCE;
import static io.dbqueue.bench.answer.AnswerSystem.RABBITMQ_CLASSIC;
import static io.dbqueue.bench.answer.AnswerSystem.RABBITMQ_QUORUM;

/**
 * What an answer run measures: the shapes, each repetition's warm-up and window, how often each
 * offered rate is repeated, and the p99 targets capacity is judged against.
 *
 * @param driverWarmup how long each driver runs, uncounted, before its first rate (a just-started
 *                     client or broker spends far more CPU per message in its first seconds)
 * @param producers    producer threads per batch size: a batch of one needs more threads to offer
 *                     the same rate, since each waits for its own acknowledgement
 */
public record AnswerPlan(String name, List<AnswerShape> shapes, int repeat, Duration warmup, Duration duration,
                         Duration driverWarmup, int producersBatched, int producersSingle, int consumers,
                         int consumerBatch, List<Integer> targetsMs) {

    /** The target the headline compares at. */
    public static final int HEADLINE_TARGET_MS = 50;
    /** A rate is kept up when both the sending and the delivering side reach this share of it. */
    public static final double KEPT_UP = 0.95;
    /** ... and at most this share of the window's deliveries, in percent, is still owed a second after it ends. */
    public static final double OWED_PERCENT = 1.0;

    public AnswerPlan {
        shapes = List.copyOf(shapes);
        targetsMs = List.copyOf(targetsMs);
    }

    private static final List<AnswerSystem> WORK_QUEUES = List.of(QUEUE_AT_LEAST_ONCE, QUEUE_EXACTLY_ONCE,
            RABBITMQ_CLASSIC, RABBITMQ_QUORUM, NATS_JETSTREAM);

    /**
     * The whole answer: about 90 minutes on 2 cores. Each rate's window is 8 s: over 3 s the p99 of the slowest
     * rates rested on a handful of messages (250 messages/s: 7 above it), and a capacity near a target moved with them.
     */
    public static AnswerPlan full() {
        List<Integer> batched = List.of(1_000, 2_000, 5_000, 10_000, 20_000, 40_000, 80_000);
        List<Integer> single = List.of(250, 500, 1_000, 2_000, 4_000, 8_000);
        List<Integer> large = List.of(500, 1_000, 2_000, 5_000, 10_000, 20_000);
        return new AnswerPlan("answer", List.of(
                new AnswerShape(1024, 100, List.of(QUEUE_AT_LEAST_ONCE, QUEUE_EXACTLY_ONCE, RABBITMQ_CLASSIC,
                        RABBITMQ_QUORUM, NATS_JETSTREAM, LOG_1_GROUP, LOG_5_GROUPS, KAFKA_1_GROUP, KAFKA_5_GROUPS,
                        KAFKA_FSYNC_1_GROUP, KAFKA_FSYNC_5_GROUPS), batched),
                new AnswerShape(1024, 1, concat(WORK_QUEUES, List.of(LOG_1_GROUP, KAFKA_1_GROUP,
                        KAFKA_FSYNC_1_GROUP)), single),
                new AnswerShape(16 * 1024, 100, List.of(QUEUE_AT_LEAST_ONCE, RABBITMQ_CLASSIC, NATS_JETSTREAM,
                        LOG_1_GROUP, KAFKA_1_GROUP, KAFKA_FSYNC_1_GROUP), large)),
                3, Duration.ofSeconds(2), Duration.ofSeconds(8), Duration.ofSeconds(8), 4, 16, 4, 100,
                List.of(10, HEADLINE_TARGET_MS, 200));
    }

    /** A first look in about five minutes: one shape, the headline's systems, three rates, one run each. */
    public static AnswerPlan quick() {
        return new AnswerPlan("answer-quick", List.of(new AnswerShape(1024, 100, List.of(QUEUE_AT_LEAST_ONCE,
                        RABBITMQ_CLASSIC, NATS_JETSTREAM, LOG_1_GROUP, KAFKA_FSYNC_1_GROUP),
                        List.of(1_000, 5_000, 20_000))),
                1, Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(5), 4, 16, 4, 100,
                List.of(10, HEADLINE_TARGET_MS, 200));
    }

    /** This plan with only {@code systems}; shapes left without a system are dropped. */
    public AnswerPlan only(List<AnswerSystem> systems) {
        return new AnswerPlan(name, shapes.stream().map(s -> s.only(systems)).filter(s -> !s.systems().isEmpty())
                .toList(), repeat, warmup, duration, driverWarmup, producersBatched, producersSingle, consumers,
                consumerBatch, targetsMs);
    }

    public int producers(int batchSize) {
        return batchSize == 1 ? producersSingle : producersBatched;
    }

    /** The largest target: past it a system's sweep stops. */
    public int largestTargetMs() {
        return targetsMs.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
