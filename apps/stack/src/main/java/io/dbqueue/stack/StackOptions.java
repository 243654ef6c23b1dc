package io.dbqueue.stack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link Stack#start} starts.
 *
 * @param producers          producer-app processes
 * @param consumers          consumer-app processes
 * @param table              the queue table, named after its layout preset (e.g. queue_tasks_5)
 * @param batchSize          producer batch and consumer claim size
 * @param consumerThreads    worker threads per consumer
 * @param mode               the consumers' delivery mode (dbq.queues.&lt;id&gt;.mode): at-least-once, exactly-once,
 *                           at-most-once, or the experiment's separate-transactions, wrap-in-transaction,
 *                           external-executor
 * @param statsTransport     how consumers report to test-app: {@code http} or {@code rabbitmq}
 *                           (the broker from RABBIT_HOST/PORT/USER/PASS, default 127.0.0.1:5672)
 * @param messagesPerRequest test-app sends one message per {@code POST /} when 1, else arrays of this many to {@code /batch}
 * @param concurrency        test-app's requests in flight
 * @param jdbcUrl            an external PostgreSQL for the queue and the results, or null for an embedded one
 * @param jdbcUser           user for {@code jdbcUrl}
 * @param jdbcPassword       password for {@code jdbcUrl}
 * @param experimentPorts    test-app on 8080, producers from 8070, consumers from 8090 as in the experiment;
 *                           otherwise free ports
 * @param jarsDir            where producer-app.jar, consumer-app.jar and test-app.jar are; null for the build's
 *                           {@code apps/<name>/target}
 * @param logDir             each process writes its output to {@code <name>.log} here
 * @param jvmArgs            options for every service JVM
 * @param serviceEnv         environment added to every service's, e.g. {@code LEASE_TIMEOUT} for the consumers
 */
public record StackOptions(int producers, int consumers, String table, int batchSize, int consumerThreads,
                           String mode, String statsTransport, int messagesPerRequest, int concurrency, String jdbcUrl,
                           String jdbcUser, String jdbcPassword, boolean experimentPorts, Path jarsDir, Path logDir,
                           List<String> jvmArgs, Map<String, String> serviceEnv) {

    public static final List<String> DEFAULT_JVM_ARGS = List.of("-Xmx512m", "-XX:+UseSerialGC");
    /** consumer-app's delivery modes, and the experiment's three processing modes. */
    public static final List<String> MODES = List.of("at-least-once", "exactly-once", "at-most-once",
            "separate-transactions", "wrap-in-transaction", "external-executor");

    public StackOptions {
        atLeast("producers", producers, 1);
        atLeast("consumers", consumers, 1);
        atLeast("batchSize", batchSize, 1);
        atLeast("consumerThreads", consumerThreads, 1);
        atLeast("messagesPerRequest", messagesPerRequest, 1);
        atLeast("concurrency", concurrency, 1);
        Objects.requireNonNull(table, "table");
        if (!MODES.contains(mode)) {
            throw new IllegalArgumentException("mode must be one of " + MODES + ", was '" + mode + "'");
        }
        if (!statsTransport.equals("http") && !statsTransport.equals("rabbitmq")) {
            throw new IllegalArgumentException("statsTransport must be http or rabbitmq, was " + statsTransport);
        }
        Objects.requireNonNull(logDir, "logDir");
        jvmArgs = List.copyOf(jvmArgs);
        serviceEnv = Map.copyOf(serviceEnv);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts from the defaults: one producer, one consumer with the experiment's 14 threads, batch 10,
     *  at-least-once, queue_tasks_5, statistics over HTTP, an embedded PostgreSQL, free ports. */
    public static final class Builder {
        private int producers = 1;
        private int consumers = 1;
        private String table = "queue_tasks_5";
        private int batchSize = 10;
        private int consumerThreads = 14;
        private String mode = "at-least-once";
        private String statsTransport = "http";
        private int messagesPerRequest = 1;
        private int concurrency = 32;
        private String jdbcUrl;
        private String jdbcUser = "postgres";
        private String jdbcPassword = "";
        private boolean experimentPorts;
        private Path jarsDir;
        private Path logDir = Path.of(".stack", "logs");
        private List<String> jvmArgs = DEFAULT_JVM_ARGS;
        private Map<String, String> serviceEnv = Map.of();

        public Builder producers(int value) {
            producers = value;
            return this;
        }

        public Builder consumers(int value) {
            consumers = value;
            return this;
        }

        public Builder table(String value) {
            table = value;
            return this;
        }

        public Builder batchSize(int value) {
            batchSize = value;
            return this;
        }

        public Builder consumerThreads(int value) {
            consumerThreads = value;
            return this;
        }

        public Builder mode(String value) {
            mode = value;
            return this;
        }

        public Builder statsTransport(String value) {
            statsTransport = value;
            return this;
        }

        public Builder messagesPerRequest(int value) {
            messagesPerRequest = value;
            return this;
        }

        public Builder concurrency(int value) {
            concurrency = value;
            return this;
        }

        /** An external PostgreSQL; a null url starts an embedded one. */
        public Builder jdbc(String url, String user, String password) {
            jdbcUrl = url;
            jdbcUser = user;
            jdbcPassword = password;
            return this;
        }

        public Builder experimentPorts(boolean value) {
            experimentPorts = value;
            return this;
        }

        public Builder jarsDir(Path value) {
            jarsDir = value;
            return this;
        }

        public Builder logDir(Path value) {
            logDir = value;
            return this;
        }

        public Builder jvmArgs(List<String> value) {
            jvmArgs = value;
            return this;
        }

        public Builder serviceEnv(Map<String, String> value) {
            serviceEnv = value;
            return this;
        }

        public StackOptions build() {
            return new StackOptions(producers, consumers, table, batchSize, consumerThreads, mode, statsTransport,
                    messagesPerRequest, concurrency, jdbcUrl, jdbcUser, jdbcPassword, experimentPorts, jarsDir, logDir,
                    jvmArgs, serviceEnv);
        }
    }

    /** The executable jar of service {@code name} (producer-app, consumer-app, test-app). */
    Path jar(String name) {
        String file = name + ".jar";
        List<Path> candidates = jarsDir != null ? List.of(jarsDir.resolve(file))
                : List.of(Path.of("apps", name, "target", file), Path.of("..", name, "target", file));
        return candidates.stream().filter(Files::isRegularFile).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + file + " in " + candidates
                        + "; build it with ./mvnw -q -B package -DskipTests -pl apps/" + name + " -am"));
    }

    private static void atLeast(String field, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(field + " must be at least " + min + ", was " + value);
        }
    }
}
