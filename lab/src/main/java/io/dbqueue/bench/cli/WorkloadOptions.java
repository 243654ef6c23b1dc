package io.dbqueue.bench.cli;

import io.dbqueue.bench.workload.DriverName;
import io.dbqueue.bench.workload.DurationText;
import io.dbqueue.bench.workload.LogLoad;
import io.dbqueue.bench.workload.StackLoad;
import io.dbqueue.bench.workload.Workload;
import io.dbqueue.bench.workload.WorkloadFile;
import io.dbqueue.postgres.ServerProfile;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** The workload: a profile or a YAML file, then any flag overrides the field it names. */
final class WorkloadOptions {

    @Option(names = "--profile", paramLabel = "NAME", defaultValue = "default",
            description = "quick (smoke run, minutes), default (the matrix), full, ceiling (the library against pgbench),"
                    + " stability (10 min run), backlog (1,000,000 waiting messages), pubsub (the log against Kafka),"
                    + " pubsub-soak (30 min with retention), study-queue (the log study's queue variant beside the library),"
                    + " clients (enqueuers x dequeuers: 1..3 producers x 1..3 consumers), priorities (priority claim vs FIFO),"
                    + " priorities-drain (the claim alone: consumers drain a backlog on 4 priorities vs FIFO),"
                    + " history (the library with and without a history of finished tasks),"
                    + " headers (the tasks' headers column, unused, against a table without it)."
                    + " Default: ${DEFAULT-VALUE}.")
    String profile;

    @Option(names = "--workload", paramLabel = "FILE",
            description = "A workload YAML file instead of a profile; keys it leaves out come from the default profile.")
    Path workloadFile;

    @Option(names = "--layouts", split = ",", paramLabel = "LAYOUT", description = "e.g. queue_tasks_1,dbq_seq")
    List<String> layouts;

    @Option(names = "--batch-sizes", split = ",", paramLabel = "N", description = "e.g. 1,10,20,100")
    List<Integer> batchSizes;

    @Option(names = "--drivers", split = ",", paramLabel = "DRIVER", converter = DriverNames.class,
            completionCandidates = DriverNames.class,
            description = "${COMPLETION-CANDIDATES} (sharded-N with --shards N)")
    List<DriverName> drivers;

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

    @Option(names = "--producers", split = ",", paramLabel = "N",
            description = "Producer threads; a list (e.g. 1,2,3) sweeps them: a cell per producers x consumers.")
    List<Integer> producers;

    @Option(names = "--consumers", split = ",", paramLabel = "N",
            description = "Consumer threads; a list (e.g. 1,2,3) sweeps them: a cell per producers x consumers.")
    List<Integer> consumers;

    @Option(names = "--backlog", paramLabel = "N", description = "Messages waiting in the table before the warm-up.")
    Long backlog;

    @Option(names = "--max-backlog", paramLabel = "N", description = "Producers hold back above this many waiting messages.")
    Long maxBacklog;

    @Option(names = "--stack-messages-per-request", paramLabel = "N",
            description = "stack driver: messages per test-app request; 1 = POST / (the experiment), more = POST /batch.")
    Integer stackMessagesPerRequest;

    @Option(names = "--stack-concurrency", paramLabel = "N", description = "stack driver: test-app's requests in flight.")
    Integer stackConcurrency;

    @Option(names = "--partitions", paramLabel = "N", description = "log and kafka drivers: the topic's partitions.")
    Integer partitions;

    @Option(names = "--groups", paramLabel = "N",
            description = "log and kafka drivers: consumer groups, each reading every message; each has --consumers readers.")
    Integer groups;

    @Option(names = "--read-batch", paramLabel = "N", description = "log and kafka drivers: records a reader takes at once.")
    Integer readBatch;

    @Option(names = "--mode", paramLabel = "MODE",
            description = "Consumers' delivery mode: at-least-once, exactly-once (wrap in transaction) or at-most-once.")
    String mode;

    @Option(names = "--server-profile", paramLabel = "PROFILE",
            description = "The embedded server's settings beyond durability: stock (default, PostgreSQL's own) or tuned"
                    + " (autovacuum_naptime=1s). An external server keeps its own settings.")
    String serverProfile;

    @Option(names = "--wakeup", paramLabel = "MODE",
            description = "direct driver: how idle consumers learn of new tasks: poll (every 100 ms, default),"
                    + " notify (LISTEN/NOTIFY, the producers notify) or adaptive (notify, tight polling while saturated).")
    String wakeup;

    @Option(names = "--consumer-batch", paramLabel = "N",
            description = "Consumers' claim batch (direct), prefetch (rabbitmq), fetch (nats) or read batch (log, kafka),"
                    + " apart from the producers' batch; 0 = the cell's batch size (log and kafka: --read-batch).")
    Integer consumerBatch;

    @Option(names = "--priorities", paramLabel = "N",
            description = "direct driver, layouts with priorities (dbq_seq_priority, dbq_seq_priority_key): producer"
                    + " batches cycle through priorities 0..N-1; 0 = enqueued without a priority (default).")
    Integer priorities;

    @Option(names = "--hold-xmin", description = "A transaction holds the server's xmin horizon through each"
            + " repetition, as a forgotten session or a long report does: vacuum removes nothing deleted meanwhile.")
    Boolean holdXmin;

    Workload workload() {
        Workload w = workloadFile != null ? WorkloadFile.read(workloadFile) : WorkloadFile.profile(profile);
        Workload.Builder b = w.toBuilder();
        set(layouts, b::layouts);
        set(batchSizes, b::batchSizes);
        set(drivers, b::drivers);
        set(repeat, b::repeat);
        set(warmup, v -> b.warmup(DurationText.parse("--warmup", v)));
        set(duration, v -> b.duration(DurationText.parse("--duration", v)));
        set(messages, b::messages);
        set(messageSize, b::messageSize);
        set(producerRate, b::producerRate);
        set(producers, b::producerCounts);
        set(consumers, b::consumerCounts);
        if (backlog != null || maxBacklog != null) {
            // without --max-backlog, a new backlog keeps the profile's headroom above it
            long newBacklog = backlog != null ? backlog : w.backlog();
            b.backlog(newBacklog).maxBacklog(maxBacklog != null ? maxBacklog : newBacklog - w.backlog() + w.maxBacklog());
        }
        set(mode, v -> b.mode(Workload.mode(v)));
        set(serverProfile, v -> b.serverProfile(ServerProfile.named(v)));
        set(wakeup, v -> b.wakeup(Workload.wakeup(v)));
        set(consumerBatch, b::consumerBatch);
        set(priorities, b::priorities);
        set(holdXmin, b::holdXmin);
        if (stackMessagesPerRequest != null || stackConcurrency != null) {
            b.stack(new StackLoad(or(stackMessagesPerRequest, w.stack().messagesPerRequest()),
                    or(stackConcurrency, w.stack().concurrency())));
        }
        if (partitions != null || groups != null || readBatch != null) {
            b.log(new LogLoad(or(partitions, w.log().partitions()), or(groups, w.log().groups()),
                    or(readBatch, w.log().readBatch()), w.log().segmentSize(), w.log().retention()));
        }
        return b.build();
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
        map.put("producers", w.producerCounts());
        map.put("consumers", w.consumerCounts());
        map.put("max_backlog", w.maxBacklog());
        map.put("backlog", w.backlog());
        map.put("mode", Workload.modeName(w.mode()));
        map.put("server_profile", w.serverProfile().label());
        map.put("wakeup", Workload.wakeupName(w.wakeup()));
        map.put("consumer_batch", w.consumerBatch());
        map.put("priorities", w.priorities());
        map.put("hold_xmin", w.holdXmin());
        map.put("stack", Map.of("messages_per_request", w.stack().messagesPerRequest(),
                "concurrency", w.stack().concurrency()));
        map.put("log", Map.of("partitions", w.log().partitions(), "groups", w.log().groups(),
                "read_batch", w.log().readBatch(), "segment_size", w.log().segmentSize(),
                "retention", w.log().retention()));
        return map;
    }

    /** Reads a driver's name, naming the known ones when it is none; lists them for the help. */
    static final class DriverNames implements ITypeConverter<DriverName>, Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(DriverName.values()).map(DriverName::toString).iterator();
        }

        @Override
        public DriverName convert(String value) {
            try {
                return DriverName.of(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    private static <T> void set(T value, Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
