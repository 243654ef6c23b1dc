package io.dbqueue.bench.answer;

import io.dbqueue.bench.driver.StopSignal;
import io.dbqueue.bench.run.MatrixRunner;
import io.dbqueue.bench.run.NotMeasured;
import io.dbqueue.bench.run.Progress;
import io.dbqueue.bench.run.Range;
import io.dbqueue.bench.workload.DriverName;
import io.dbqueue.bench.workload.LogLoad;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.common.DeliveryMode;
import io.dbqueue.queue.Wakeup;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs an answer plan: for every shape and system, an open-loop sweep of offered rates, lowest
 * first, each rate repeated, until the system no longer keeps up or its p99 passes the largest
 * target; then, where the shape has the queue, its ceiling: pgbench running a minimal queue flat
 * out. Every system runs through its lab driver, as {@code bench run} runs it.
 */
public final class AnswerRunner {

    /** Producers hold back past this many seconds of the offered rate waiting, so a system far behind cannot fill the disk. */
    private static final long BACKLOG_SECONDS = 30;
    /** The ceiling's producers hold back past this many waiting, as in the ceiling profile: a deep table is not its point. */
    public static final long CEILING_BACKLOG = 10_000;

    private final AnswerPlan plan;
    private final Workload base;
    private final String layout;
    private final MatrixRunner matrix;
    private final StopSignal stop;
    private final PrintStream console;
    private final Set<String> warm = new HashSet<>();

    /** {@code matrix} runs each offered rate as a matrix of one cell; it warms no JVM up, as this runner warms each driver. */
    public AnswerRunner(AnswerPlan plan, Workload base, String layout, MatrixRunner matrix, StopSignal stop,
                        PrintStream console) {
        this.plan = plan;
        this.base = base;
        this.layout = layout;
        this.matrix = matrix;
        this.stop = stop;
        this.console = console;
    }

    /** What a run measured: its sweeps and ceilings, in the plan's order. */
    public record Measured(List<Sweep> sweeps, List<Ceiling> ceilings) {
    }

    /** Every sweep and ceiling of the plan, in its order; those not run when stopped are left out. */
    public Measured run() {
        List<Sweep> sweeps = new ArrayList<>();
        List<Ceiling> ceilings = new ArrayList<>();
        for (AnswerShape shape : plan.shapes()) {
            for (AnswerSystem system : shape.systems()) {
                if (stop.isStopped()) {
                    return new Measured(sweeps, ceilings);
                }
                sweeps.add(sweep(system, shape));
            }
            if (shape.systems().contains(Ceiling.OF) && !stop.isStopped()) {
                ceilings.add(ceiling(shape));
            }
        }
        return new Measured(sweeps, ceilings);
    }

    /** The brokers the sweeps measured, by system, as each names itself (product, version, where). */
    public Map<String, String> servers(List<Sweep> sweeps) {
        Map<String, String> servers = new TreeMap<>();
        sweeps.stream().filter(Sweep::measured).map(Sweep::system).distinct().forEach(system ->
                matrix.server(system.driver()).ifPresent(server -> servers.put(system.id(), server)));
        return servers;
    }

    private Sweep sweep(AnswerSystem system, AnswerShape shape) {
        Optional<String> reason = matrix.unavailableReason(system.driver());
        if (reason.isPresent()) {
            console.println("answer: skipped " + system.id() + ": " + reason.get());
            return new Sweep(system, shape, List.of(), "skipped: " + reason.get());
        }
        warmUp(system, shape);
        List<RateStep> steps = new ArrayList<>();
        for (int rate : shape.rates()) {
            if (stop.isStopped()) {
                break;
            }
            MatrixRunner.Outcome outcome = measure(workload(system, shape, rate, plan.repeat(), plan.warmup(),
                    plan.duration()));
            String at = String.format(Locale.ROOT, "%,d messages/s", rate);
            if (stop.isStopped()) { // the last window was cut short: it says nothing about this rate
                return new Sweep(system, shape, steps, "interrupted at " + at);
            }
            Optional<String> failure = failure(outcome);
            if (failure.isPresent()) {
                String why = failure.get();
                console.println("answer: " + system.id() + " at " + rate + "/s failed: " + why);
                return new Sweep(system, shape, steps, "failed at " + at + ": " + why);
            }
            RateStep step = RateSteps.of(rate, system.groups(), outcome.runs().get(0).samples());
            steps.add(step);
            console.println(line(system, shape, step));
            if (!step.meets(plan.largestTargetMs())) {
                break;
            }
        }
        return new Sweep(system, shape, steps, null);
    }

    /**
     * pgbench running a minimal queue flat out, each repetition on a fresh table as the sweeps' rates are; a stop
     * while it runs records it as interrupted, as its last window was cut short.
     */
    private Ceiling ceiling(AnswerShape shape) {
        Optional<String> reason = matrix.unavailableReason(Ceiling.DRIVER);
        if (reason.isPresent()) {
            console.println("answer: skipped the ceiling: " + reason.get());
            return Ceiling.of(shape, null, "skipped: " + reason.get());
        }
        MatrixRunner.Outcome outcome = measure(workload(Ceiling.DRIVER, Ceiling.OF.mode(), 1, shape, 0,
                plan.repeat(), plan.warmup(), plan.duration()));
        if (stop.isStopped()) {
            return Ceiling.of(shape, null, "interrupted");
        }
        Optional<String> failure = failure(outcome);
        if (failure.isPresent()) {
            String why = failure.get();
            console.println("answer: the ceiling of " + shape.title() + " failed: " + why);
            return Ceiling.of(shape, null, "failed: " + why);
        }
        RateStep step = RateSteps.of(0, 1, outcome.runs().get(0).samples());
        console.println(String.format(Locale.ROOT, "answer: %-22s %-16s flat out: delivered %,.0f/s",
                "ceiling (" + Ceiling.DRIVER + ")", shape.title(), step.delivered().median()));
        return Ceiling.of(shape, step, null);
    }

    /** Why {@code outcome} measured nothing: a repetition's reason, or empty when it measured. */
    private static Optional<String> failure(MatrixRunner.Outcome outcome) {
        Optional<String> reason = outcome.notMeasured().stream().map(NotMeasured::reason).findFirst();
        return reason.isPresent() || !outcome.runs().isEmpty() ? reason : Optional.of("nothing measured");
    }

    /**
     * Runs the system once, uncounted, before its first rate: a just-started client, JIT compiler or
     * broker spends many times its steady CPU per message in its first seconds.
     */
    private void warmUp(AnswerSystem system, AnswerShape shape) {
        if (warm.add(system.driver() + "/" + shape.slug())) {
            measure(workload(system, shape, shape.rates().get(0), 1, Duration.ZERO, plan.driverWarmup()));
        }
    }

    private MatrixRunner.Outcome measure(Workload workload) {
        // the sweep prints a line per rate; the runner's line per repetition would only repeat it
        Progress quiet = new Progress(new PrintStream(OutputStream.nullOutputStream()), false, workload.repeat(),
                workload.estimatedTime());
        return matrix.run(workload, quiet);
    }

    /** The workload of one offered rate: the same for every system but for the driver and its own settings. */
    Workload workload(AnswerSystem system, AnswerShape shape, int rate, int repeat, Duration warmup,
                      Duration duration) {
        return workload(system.driver(), system.mode() == null ? DeliveryMode.AT_LEAST_ONCE : system.mode(),
                system.groups(), shape, rate, repeat, warmup, duration);
    }

    /** The workload of one offered rate ({@code rate} 0: flat out) for {@code driver}. */
    private Workload workload(DriverName driver, DeliveryMode mode, int groups, AnswerShape shape, int rate,
                              int repeat, Duration warmup, Duration duration) {
        LogLoad log = base.log();
        return base.toBuilder()
                .layouts(List.of(layout)).batchSizes(List.of(shape.batchSize())).drivers(List.of(driver))
                .repeat(repeat).warmup(warmup).duration(duration).messages(0).backlog(0)
                .messageSize(shape.messageSize()).producerRate(rate).producers(plan.producers(shape.batchSize()))
                .consumers(plan.consumers())
                .maxBacklog(rate == 0 ? CEILING_BACKLOG : Math.max(100_000, rate * BACKLOG_SECONDS) * groups)
                .mode(mode)
                .wakeup(Wakeup.ADAPTIVE).consumerBatch(plan.consumerBatch())
                .log(new LogLoad(log.partitions(), groups, plan.consumerBatch(), log.segmentSize(),
                        log.retention()))
                .build();
    }

    private static String line(AnswerSystem system, AnswerShape shape, RateStep step) {
        Range p99 = step.p99Ms();
        return String.format(Locale.ROOT, "answer: %-22s %-16s %,7d/s offered: delivered %,.0f/s, %s%s%s",
                system.id(), shape.title(), step.offered(), step.delivered().median(), p99 == null ? "no latency"
                        : String.format(Locale.ROOT, "p99 %.1f ms (%.1f-%.1f)", p99.median(), p99.min(), p99.max()),
                step.keptUp() ? "" : ", not kept up", step.owedPercent() == null || step.owedPercent().median() == 0 ? ""
                        : String.format(Locale.ROOT, ", %.2f %% owed 1 s after", step.owedPercent().median()));
    }
}
