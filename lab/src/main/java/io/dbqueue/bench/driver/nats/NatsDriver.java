package io.dbqueue.bench.driver.nats;

import io.dbqueue.bench.driver.CellContext;
import io.dbqueue.bench.driver.Driver;
import io.dbqueue.bench.driver.Env;
import io.dbqueue.bench.driver.InProcessMeasurement;
import io.dbqueue.bench.driver.Load;
import io.dbqueue.bench.driver.Producers;
import io.dbqueue.bench.driver.Repetition;
import io.dbqueue.bench.metrics.BrokerProcess;
import io.dbqueue.bench.metrics.Meter;
import io.dbqueue.bench.metrics.Payloads;
import io.dbqueue.bench.workload.DriverName;
import io.dbqueue.bench.workload.Workload;
import io.nats.client.Connection;
import io.nats.client.ConsumeOptions;
import io.nats.client.ConsumerContext;
import io.nats.client.IterableConsumer;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.PublishAck;
import io.nats.client.api.RetentionPolicy;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The same workload on NATS JetStream: a file-stored work-queue stream, batches published
 * asynchronously and awaited until the server acknowledged every message, and consumers that
 * iterate one durable pull consumer, keeping pull requests of the consumer batch outstanding, and
 * acknowledge each message as it arrives: a fetch waits for a full batch or its expiry, which at a
 * low rate would hold a trickle's messages. A message counts as processed when its acknowledgement
 * is sent. The server comes from NATS_URL (default
 * nats://127.0.0.1:4222); when it is unreachable, the cells are skipped. JetStream acknowledges a
 * message once it is in its file store, which the server flushes to disk on its own schedule
 * (sync_interval, 2 minutes by default): not the per-commit fsync PostgreSQL runs with here.
 */
public final class NatsDriver implements Driver {

    private static final String STREAM = "DBQ_BENCH";
    private static final String SUBJECT = "dbq.bench";
    private static final String DURABLE = "dbq-bench";
    /** How long a consumer waits for a message before it looks whether it is to stop. */
    private static final Duration NEXT_WAIT = Duration.ofMillis(100);
    /**
     * The smallest pull request: jnats 2.26's iterate with a batch of 1 delivered nothing here (a
     * batch-1 cell processed 0 messages, one of 2 all of them); every message is still taken,
     * acknowledged and reported as it arrives, so a second one pulled ahead delays none.
     */
    private static final int MIN_PULL_BATCH = 2;
    private static final long PUBLISH_TIMEOUT_SECONDS = 30;

    private final String url = Env.or("NATS_URL", "nats://127.0.0.1:4222");
    private volatile String server; // learnt by the probe

    @Override
    public DriverName name() {
        return DriverName.NATS;
    }

    @Override
    public String server() {
        return server;
    }

    @Override
    public String unavailableReason() {
        try (Connection connection = connect()) {
            connection.jetStreamManagement().getAccountStatistics();
            server = "NATS " + connection.getServerInfo().getVersion() + " (JetStream) at " + url;
            return null;
        } catch (IOException | JetStreamApiException e) {
            return "NATS JetStream is not reachable at " + url + " (" + e.getMessage() + "); set NATS_URL";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while probing NATS at " + url;
        }
    }

    @Override
    public Repetition run(CellContext context) throws Exception {
        Workload workload = context.workload();
        int batchSize = context.cell().batchSize();
        try (Connection connection = connect()) {
            recreateStream(connection.jetStreamManagement());
            JetStream jetStream = connection.jetStream();
            ConsumerContext durable = connection.getConsumerContext(STREAM, DURABLE);
            return InProcessMeasurement.run(context, List.of(), 1, BrokerProcess.namedIfLocal("nats-server", URI.create(url).getHost()), meter -> {
                AtomicReference<Throwable> failure = new AtomicReference<>();
                Consumers consumers = new Consumers(durable, workload.consumers(), workload.claimBatch(batchSize),
                        meter, failure);
                Producers producers = Producers.start(workload, batchSize, meter, () -> payloads -> publish(jetStream,
                        payloads), failure);
                return new Load(producers, consumers, failure);
            });
        }
    }

    private Connection connect() throws IOException, InterruptedException {
        return Nats.connect(Options.builder().server(url).connectionTimeout(Duration.ofSeconds(3))
                .maxReconnects(0).build());
    }

    private static void recreateStream(JetStreamManagement management) throws IOException, JetStreamApiException {
        if (management.getStreamNames().contains(STREAM)) {
            management.deleteStream(STREAM);
        }
        management.addStream(StreamConfiguration.builder().name(STREAM).subjects(SUBJECT)
                .storageType(StorageType.File).retentionPolicy(RetentionPolicy.WorkQueue).build());
        management.addOrUpdateConsumer(STREAM, ConsumerConfiguration.builder().durable(DURABLE).filterSubject(SUBJECT)
                .ackPolicy(AckPolicy.Explicit).build());
    }

    /** Publishes a batch and waits until the server has acknowledged (stored) every message of it. */
    private static void publish(JetStream jetStream, List<String> payloads) throws Exception {
        List<CompletableFuture<PublishAck>> acks = new ArrayList<>(payloads.size());
        for (String payload : payloads) {
            acks.add(jetStream.publishAsync(SUBJECT, payload.getBytes(StandardCharsets.UTF_8)));
        }
        CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(PUBLISH_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Consumer threads sharing the durable pull consumer: take each message as it comes, acknowledge it, report it. */
    private static final class Consumers implements AutoCloseable {
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean running = true;

        Consumers(ConsumerContext durable, int count, int batchSize, Meter meter, AtomicReference<Throwable> failure)
                throws IOException, JetStreamApiException {
            for (int i = 0; i < count; i++) {
                IterableConsumer consumer = durable.iterate(ConsumeOptions.builder()
                        .batchSize(Math.max(MIN_PULL_BATCH, batchSize)).build());
                Thread thread = new Thread(() -> {
                    try (consumer) {
                        consume(consumer, meter);
                    } catch (Exception e) {
                        if (running) {
                            failure.compareAndSet(null, e);
                        }
                    }
                }, "bench-nats-consumer-" + (i + 1));
                thread.setDaemon(true);
                threads.add(thread);
            }
            threads.forEach(Thread::start);
        }

        private void consume(IterableConsumer consumer, Meter meter) throws Exception {
            long[] stamp = new long[1];
            while (running) {
                Message message = consumer.nextMessage(NEXT_WAIT);
                if (message != null) {
                    message.ack();
                    stamp[0] = Payloads.stamp(new String(message.getData(), StandardCharsets.UTF_8));
                    meter.processed(stamp, 1);
                }
            }
            consumer.stop();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            }
        }
    }
}
