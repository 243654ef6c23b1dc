package io.dbqueue.bench.workload;

import io.dbqueue.postgres.ServerProfile;

import java.util.List;

/** A workload file's keys as written, the defaults' where the file leaves one out; see {@link Workload}. */
record WorkloadYaml(String name, List<String> layouts, List<Integer> batchSizes, List<DriverName> drivers, int repeat,
                    String warmup, String duration, long messages, int messageSize, int producerRate,
                    List<Integer> producers, List<Integer> consumers, long maxBacklog, long backlog, String mode,
                    StackLoad stack, LogLoad log, String serverProfile, String wakeup, int consumerBatch,
                    int priorities, boolean holdXmin) {

    Workload workload() {
        return new Workload(name, layouts, batchSizes, drivers, repeat, DurationText.parse("warmup", warmup),
                DurationText.parse("duration", duration), messages, messageSize, producerRate, producers, consumers,
                maxBacklog, backlog, Workload.mode(mode), stack, log, ServerProfile.named(serverProfile),
                Workload.wakeup(wakeup), consumerBatch, priorities, holdXmin);
    }
}
