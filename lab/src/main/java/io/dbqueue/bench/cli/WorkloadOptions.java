package io.dbqueue.bench.cli;

import io.dbqueue.bench.workload.DurationText;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.bench.workload.WorkloadFile;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The workload: a profile or a YAML file, then any flag overrides the field it names. */
final class WorkloadOptions {

    @Option(names = "--profile", paramLabel = "NAME", defaultValue = "default",
            description = "quick (under 3 min), default (under 20 min), full, stability (10 min run),"
                    + " backlog (1,000,000 waiting messages). Default: ${DEFAULT-VALUE}.")
    String profile;

    @Option(names = "--workload", paramLabel = "FILE",
            description = "A workload YAML file instead of a profile; keys it leaves out come from the default profile.")
    Path workloadFile;

    @Option(names = "--layouts", split = ",", paramLabel = "LAYOUT", description = "e.g. queue_tasks_1,dbq_seq")
    List<String> layouts;

    @Option(names = "--batch-sizes", split = ",", paramLabel = "N", description = "e.g. 1,10,20,100")
    List<Integer> batchSizes;

    @Option(names = "--drivers", split = ",", paramLabel = "DRIVER",
            description = "direct, raw-sql, stack, rabbitmq")
    List<String> drivers;

    @Option(names = "--repeat", paramLabel = "N", description = "Repetitions of each cell.")
    Integer repeat;

    @Option(names = "--warmup", paramLabel = "DURATION", description = "Unmeasured warm-up per repetition, e.g. 5s.")
    String warmup;

    @Option(names = "--duration", paramLabel = "DURATION", description = "Measured window per repetition, e.g. 30s.")
    String duration;

    @Option(names = "--messages", paramLabel = "N",
            description = "Measure until N messages are processed instead (the duration is then the cap).")
    Long messages;

    @Option(names = "--message-size", paramLabel = "BYTES", description = "Payload size.")
    Integer messageSize;

    @Option(names = "--producer-rate", paramLabel = "MSG/S", description = "Total enqueue rate; 0 = as fast as possible.")
    Integer producerRate;

    @Option(names = "--producers", paramLabel = "N", description = "Producer threads.")
    Integer producers;

    @Option(names = "--consumers", paramLabel = "N", description = "Consumer threads.")
    Integer consumers;

    @Option(names = "--backlog", paramLabel = "N", description = "Messages waiting in the table before the warm-up.")
    Long backlog;

    @Option(names = "--max-backlog", paramLabel = "N", description = "Producers hold back above this many waiting messages.")
    Long maxBacklog;

    Workload workload() {
        Workload w = workloadFile != null ? WorkloadFile.read(workloadFile) : WorkloadFile.profile(profile);
        if (layouts != null) {
            w = w.withLayouts(layouts);
        }
        if (batchSizes != null) {
            w = w.withBatchSizes(batchSizes);
        }
        if (drivers != null) {
            w = w.withDrivers(drivers);
        }
        if (repeat != null) {
            w = w.withRepeat(repeat);
        }
        if (warmup != null) {
            w = w.withWarmup(DurationText.parse("--warmup", warmup));
        }
        if (duration != null) {
            w = w.withDuration(DurationText.parse("--duration", duration));
        }
        if (messages != null) {
            w = w.withMessages(messages);
        }
        w = w.withLoad(or(messageSize, w.messageSize()), or(producerRate, w.producerRate()), or(producers, w.producers()),
                or(consumers, w.consumers()));
        if (backlog == null && maxBacklog == null) {
            return w;
        }
        // without --max-backlog, a new backlog keeps the profile's headroom above it
        long newBacklog = backlog != null ? backlog : w.backlog();
        return w.withBacklog(newBacklog, maxBacklog != null ? maxBacklog : newBacklog - w.backlog() + w.maxBacklog());
    }

    /** The workload as written to results.json and the report, keys as in a workload file. */
    Map<String, Object> describe(Workload w) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("name", w.name());
        map.put("source", workloadFile != null ? workloadFile.toString() : "profile " + profile);
        map.put("layouts", w.layouts());
        map.put("batch_sizes", w.batchSizes());
        map.put("drivers", w.drivers());
        map.put("repeat", w.repeat());
        map.put("warmup", DurationText.format(w.warmup()));
        map.put("duration", DurationText.format(w.duration()));
        map.put("messages", w.messages());
        map.put("message_size", w.messageSize());
        map.put("producer_rate", w.producerRate());
        map.put("producers", w.producers());
        map.put("consumers", w.consumers());
        map.put("max_backlog", w.maxBacklog());
        map.put("backlog", w.backlog());
        return map;
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
