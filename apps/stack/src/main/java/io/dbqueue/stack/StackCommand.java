package io.dbqueue.stack;

import io.dbqueue.stack.fault.FaultCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code ./stack}: starts the whole stack, prints where it is, and keeps it up until Ctrl-C. */
@Command(name = "stack", mixinStandardHelpOptions = true, sortOptions = false, subcommands = FaultCommand.class,
        description = {"Starts PostgreSQL, producer-app, consumer-app and test-app as separate processes on 127.0.0.1 "
                + "and keeps them running until Ctrl-C, then stops them all.",
                "",
                "Environment (as in the experiment): DB_URL, DB_USERNAME, DB_PASSWORD point at an external PostgreSQL "
                + "(default: a durable embedded PostgreSQL 18); DB_QUEUE_LOCATION names the queue table; RABBIT_HOST, "
                + "RABBIT_PORT, RABBIT_USER, RABBIT_PASS send statistics over RabbitMQ instead of HTTP.",
                ""})
public final class StackCommand implements Callable<Integer> {

    @Option(names = "--producers", description = "producer-app processes (default: ${DEFAULT-VALUE})")
    int producers = 1;

    @Option(names = "--consumers", description = "consumer-app processes (default: ${DEFAULT-VALUE})")
    int consumers = 1;

    @Option(names = "--table", description = "queue table, a layout preset name (default: DB_QUEUE_LOCATION or ${DEFAULT-VALUE})")
    String table = envOr("DB_QUEUE_LOCATION", "queue_tasks_5");

    @Option(names = "--batch-size", description = "producer batch and consumer claim size (default: ${DEFAULT-VALUE})")
    int batchSize = 10;

    @Option(names = "--consumer-threads", description = "worker threads per consumer (default: ${DEFAULT-VALUE})")
    int consumerThreads = 14;

    @Option(names = "--mode", description = "consumers' delivery mode: at-least-once, exactly-once, at-most-once,"
            + " or the experiment's separate-transactions, wrap-in-transaction, external-executor"
            + " (default: PROCESSING_MODE or ${DEFAULT-VALUE})")
    String mode = envOr("PROCESSING_MODE", "at-least-once");

    @Option(names = "--stats", description = "statistics transport, http or rabbitmq (default: rabbitmq when RABBIT_HOST is set, else http)")
    String statsTransport = envOr("RABBIT_HOST", "").isBlank() ? "http" : "rabbitmq";

    @Option(names = "--messages-per-request", description = "test-app sends this many messages per request; more than 1 uses POST /batch (default: ${DEFAULT-VALUE})")
    int messagesPerRequest = 1;

    @Option(names = "--concurrency", description = "test-app's requests in flight (default: ${DEFAULT-VALUE})")
    int concurrency = 32;

    @Option(names = "--jdbc-url", description = "external PostgreSQL (default: DB_URL, else an embedded one); credentials from DB_USERNAME and DB_PASSWORD")
    String jdbcUrl = System.getenv("DB_URL");

    @Option(names = "--free-ports", description = "use free ports instead of the experiment's 8080 (test-app), 8070.. (producers), 8090.. (consumers)")
    boolean freePorts;

    @Option(names = "--jars-dir", description = "directory holding producer-app.jar, consumer-app.jar, test-app.jar (default: apps/*/target)")
    Path jarsDir;

    @Option(names = "--log-dir", description = "where each process writes <name>.log (default: ${DEFAULT-VALUE})")
    Path logDir = Path.of(".stack", "logs");

    @Option(names = "--jvm-arg", description = "option for every service JVM, repeatable; replaces the default (default: ${DEFAULT-VALUE})")
    List<String> jvmArgs = new ArrayList<>(StackOptions.DEFAULT_JVM_ARGS);

    public static void main(String[] args) {
        System.exit(new CommandLine(new StackCommand()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        StackOptions options = StackOptions.builder().producers(producers).consumers(consumers).table(table)
                .batchSize(batchSize).consumerThreads(consumerThreads).mode(mode).statsTransport(statsTransport)
                .messagesPerRequest(messagesPerRequest).concurrency(concurrency)
                .jdbc(jdbcUrl, envOr("DB_USERNAME", "postgres"), envOr("DB_PASSWORD", ""))
                .experimentPorts(!freePorts).jarsDir(jarsDir).logDir(logDir).jvmArgs(jvmArgs).build();
        CountDownLatch stopped = new CountDownLatch(1);
        Stack stack = Stack.start(options);
        Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "stack-stopped"));
        System.out.println(banner(stack));
        stopped.await();
        return 0;
    }

    private static String banner(Stack stack) {
        String testApp = stack.testAppUrl();
        return String.join("\n",
                "",
                "The stack is up (logs in " + stack.options().logDir().toAbsolutePath() + "):",
                "  test-app     " + testApp,
                "  producers    " + String.join(" ", stack.producerUrls()),
                "  consumers    " + String.join(" ", stack.consumerUrls()),
                "  dashboard    " + String.join(" ", stack.dashboardUrls()),
                "  PostgreSQL   " + stack.jdbcUrl() + " (results in database " + Stack.RESULTS_DATABASE + ")",
                "",
                "Start a run and read the results:",
                "  curl -X POST '" + testApp + "/?testDataCount=10000'",
                "  curl " + testApp + "/",
                "  curl " + testApp + "/1",
                "",
                "Ctrl-C stops everything.");
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
