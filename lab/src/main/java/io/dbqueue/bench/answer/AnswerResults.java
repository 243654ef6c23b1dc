package io.dbqueue.bench.answer;

import io.dbqueue.bench.environment.Environment;

import java.util.List;
import java.util.Map;

/**
 * An answer run as results.json holds it: what ran, where, and every sweep with every repetition's
 * figures folded into medians and ranges.
 *
 * @param layout           the queue table layout the PostgreSQL queue ran on (the best one for the server's version)
 * @param producersBatched producer threads at a batch over 1; {@code producersSingle} at a batch of 1
 * @param consumers        consumer threads (per group for a topic)
 * @param consumerBatch    what a consumer claims, prefetches or reads at once
 * @param servers          the brokers measured, by system id, as each named itself (product, version, where);
 *                         absent (null) in results written before it was recorded
 * @param ceilings         per shape the queue ran in, PostgreSQL's own pgbench running flat out (a minimal queue, or
 *                         in the first runs the queue's statements); absent (null) in results written before the
 *                         answer measured it
 */
public record AnswerResults(String kind, int schemaVersion, String startedAt, String finishedAt, boolean interrupted,
                            String plan, String layout, int repeat, double warmupSeconds, double windowSeconds,
                            int producersBatched, int producersSingle, int consumers, int consumerBatch,
                            List<Integer> targetsMs, Environment environment, Map<String, String> servers,
                            List<Sweep> sweeps, List<Ceiling> ceilings) {

    public static final String KIND = "answer";
    public static final int SCHEMA_VERSION = 1;

    public AnswerResults {
        targetsMs = List.copyOf(targetsMs);
        sweeps = List.copyOf(sweeps);
        ceilings = ceilings == null ? null : List.copyOf(ceilings);
    }

    /** The sweep of {@code system} in the shape of this size and batch, or null when it did not run. */
    public Sweep sweep(AnswerSystem system, int messageSize, int batchSize) {
        return sweeps.stream().filter(s -> s.system() == system && s.shape().messageSize() == messageSize
                && s.shape().batchSize() == batchSize).findFirst().orElse(null);
    }

    /** The ceiling of {@code shape}, or null when the run did not include one. */
    public Ceiling ceiling(AnswerShape shape) {
        return ceilings == null ? null : ceilings.stream().filter(c -> c.shape().messageSize() == shape.messageSize()
                && c.shape().batchSize() == shape.batchSize()).findFirst().orElse(null);
    }

    /** The shapes measured, in run order. */
    public List<AnswerShape> shapes() {
        return sweeps.stream().map(Sweep::shape).distinct().toList();
    }
}
