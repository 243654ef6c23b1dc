package io.dbqueue.stack.fault;

import io.dbqueue.common.Identifiers;
import io.dbqueue.stack.Stack;
import io.dbqueue.stack.StackOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The bad-input scenario: the corpus of bad requests ({@code bad-input/producer-app.tsv},
 * {@code bad-input/test-app.tsv}) against the running services. Each bad request must get the 4xx
 * the corpus names with a problem detail (RFC 9457) naming the problem, never a 5xx or a hang; nothing of a refused
 * request is stored (the valid ones' messages are processed, no test-app run starts); and valid
 * traffic right after runs as fast as right before.
 */
final class BadInputRun {

    private static final Logger LOG = LoggerFactory.getLogger(BadInputRun.class);
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int TRAFFIC_MESSAGES = 5_000;
    private static final int TRAFFIC_CLIENTS = 8;
    private static final int TRAFFIC_BATCH = 10;
    /** Concurrent connections of the flood: far more than producer-app's pool of 10 database connections. */
    static final int FLOOD = 500;

    private final FaultSettings settings;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final long runId = System.currentTimeMillis();
    private final List<String> failures = new ArrayList<>();
    private int requests;
    private int refused;
    private int validStored;
    private int serverErrors;
    private int hangs;
    private long expected;

    private BadInputRun(FaultSettings settings) {
        this.settings = settings;
    }

    static BadInputResult run(FaultSettings settings) throws Exception {
        return new BadInputRun(settings).run();
    }

    static List<BadRequest> corpus(String service) {
        try (InputStream in = BadInputRun.class.getResourceAsStream("/bad-input/" + service + ".tsv")) {
            if (in == null) {
                throw new IllegalStateException("no corpus bad-input/" + service + ".tsv on the class path");
            }
            return BadRequest.parse(Arrays.asList(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private BadInputResult run() throws Exception {
        String table = Identifiers.tableName(settings.table());
        // The embedded server trusts local connections, so any password works: a made-up one is set and then
        // looked for in the logs. An external server's own password is looked for instead.
        String secret = settings.jdbcUrl() == null ? "s3cret-" + Long.toHexString(Double.doubleToLongBits(Math.random()))
                : settings.jdbcPassword();
        Map<String, String> env = settings.jdbcUrl() == null
                ? Map.of("DB_PASSWORD", secret, "TEST_DB_PASSWORD", secret) : Map.of();
        StackOptions options = settings.stack("bad_input", env);
        Path logs = options.logDir();
        try (Stack stack = Stack.start(options)) {
            for (String service : List.of(stack.producerUrls().get(0), stack.consumerUrls().get(0), stack.testAppUrl())) {
                exposesHealthOnly(service);
                listensOnLoopbackOnly(service);
            }
            String producer = stack.producerUrls().get(0);
            double before = validTraffic(producer);
            for (BadRequest request : corpus("producer-app")) {
                send(producer, request);
            }
            for (BadRequest request : corpus("test-app")) {
                send(stack.testAppUrl(), request);
            }
            Map<String, Integer> flood = flood(producer);
            double after = validTraffic(producer);
            long processed = awaitProcessed(stack, table);
            long runs = Sql.longOf(stack.connectResults(), "SELECT count(*) FROM test_run");
            stack.close(); // the services' last words are in the logs too
            secretsInLogs(logs, secret);
            return new BadInputResult(requests, refused, validStored, serverErrors, hangs, processed, expected, runs,
                    before, after, flood, failures);
        }
    }

    private void send(String base, BadRequest request) throws InterruptedException {
        requests++;
        byte[] body = request.bytes(runId);
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + request.path())).timeout(TIMEOUT)
                .method(request.method(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        if (!request.contentType().equals("-")) {
            builder.header("Content-Type", request.contentType());
        }
        HttpResponse<String> answer;
        try {
            answer = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            hangs++;
            failures.add(request.describe() + ": no answer within " + TIMEOUT.toSeconds() + " s");
            return;
        } catch (IOException e) {
            failures.add(request.describe() + ": " + e);
            return;
        }
        int status = answer.statusCode();
        if (status >= 500) {
            serverErrors++;
        }
        String problem = check(request, status, answer.body());
        if (problem != null) {
            failures.add(request.describe() + ": " + problem);
        } else if (request.valid()) {
            validStored++;
            expected += request.messages();
        } else {
            refused++;
        }
    }

    /** Actuator serves health, and nothing that shows settings, metrics or internals. */
    private void exposesHealthOnly(String service) throws InterruptedException {
        for (String endpoint : List.of("env", "configprops", "metrics", "beans", "heapdump", "threaddump", "loggers")) {
            try {
                int status = http.send(HttpRequest.newBuilder(URI.create(service + "/actuator/" + endpoint))
                        .timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status != 404) {
                    failures.add(service + "/actuator/" + endpoint + " answered " + status + ", expected 404");
                }
            } catch (IOException e) {
                failures.add(service + "/actuator/" + endpoint + ": " + e);
            }
        }
    }

    /** The service cannot be reached on this machine's other addresses (where it has one). */
    private void listensOnLoopbackOnly(String service) throws IOException {
        int port = URI.create(service).getPort();
        for (var nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (var address : Collections.list(nic.getInetAddresses())) {
                if (address.isLoopbackAddress() || address.isLinkLocalAddress()) {
                    continue;
                }
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress(address, port), 1_000);
                    failures.add(service + " also answers on " + address.getHostAddress() + ":" + port);
                } catch (IOException refused) {
                    // as it should be: bound to 127.0.0.1 only
                }
            }
        }
    }

    /** No service wrote the database password to its log. */
    private void secretsInLogs(Path logs, String secret) throws IOException {
        if (secret == null || secret.isEmpty()) {
            return;
        }
        try (var files = Files.list(logs)) {
            for (Path log : files.filter(f -> f.toString().endsWith(".log")).toList()) {
                if (Files.readString(log, StandardCharsets.ISO_8859_1).contains(secret)) {
                    failures.add(log.getFileName() + " contains the database password");
                }
            }
        }
    }

    /** What is wrong with the answer, or null. */
    private static String check(BadRequest request, int status, String body) {
        if (!request.accepts(status)) {
            return "answered " + status + ", expected " + request.status() + ": " + abbreviate(body);
        }
        if (request.valid() || request.error().equals(BadRequest.ANY_BODY)) {
            return null;
        }
        JsonNode error;
        try {
            error = JSON.readTree(body).get("detail");
        } catch (RuntimeException e) {
            return "answered " + status + " without a JSON body: " + abbreviate(body);
        }
        if (error == null || !error.isString()) {
            return "answered " + status + " without a problem \"detail\": " + abbreviate(body);
        }
        if (!request.error().equals(BadRequest.ANY_ERROR) && !error.asString().contains(request.error())) {
            return "error \"" + abbreviate(error.asString()) + "\" does not say \"" + request.error() + "\"";
        }
        return null;
    }

    /**
     * {@value #FLOOD} single messages sent at once, each on its own connection: every answer must be a
     * 200, or a 503 with a problem detail (the database pool exhausted past its timeout), nothing else.
     */
    private Map<String, Integer> flood(String producer) throws Exception {
        String message = "{\"message\":\"flood\",\"testId\":" + runId + "}";
        ExecutorService clients = Executors.newFixedThreadPool(FLOOD);
        Map<String, Integer> answers = new TreeMap<>();
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<String>> sent = new ArrayList<>();
            for (int i = 0; i < FLOOD; i++) {
                sent.add(clients.submit(() -> {
                    // Its own client, so its own connection, as 500 separate callers would have.
                    HttpClient own = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
                    go.await();
                    try {
                        HttpResponse<String> answer = own.send(HttpRequest.newBuilder(URI.create(producer + "/"))
                                .timeout(TIMEOUT).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(message)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        return answer.statusCode() == 503 && answer.body().contains("\"detail\"") ? "503"
                                : answer.statusCode() == 200 ? "200" : "other";
                    } catch (IOException e) {
                        return "other";
                    }
                }));
            }
            go.countDown();
            for (Future<String> answer : sent) {
                String kind = answer.get();
                answers.merge(kind, 1, Integer::sum);
                if (kind.equals("200")) {
                    expected++;
                }
            }
        } finally {
            clients.shutdownNow();
        }
        if (answers.getOrDefault("other", 0) > 0) {
            failures.add(answers.get("other") + " of " + FLOOD + " concurrent requests got neither a 200 nor a 503 naming the cause");
        }
        LOG.info("bad_input: {} requests at once: {}", FLOOD, answers);
        return answers;
    }

    /** Sends valid batches from several clients at full speed; returns messages per second. */
    private double validTraffic(String producer) throws Exception {
        String batch = "[" + String.join(",", Collections.nCopies(TRAFFIC_BATCH,
                "{\"message\":\"valid\",\"testId\":" + runId + "}")) + "]";
        int requestsPerClient = TRAFFIC_MESSAGES / TRAFFIC_BATCH / TRAFFIC_CLIENTS;
        ExecutorService clients = Executors.newFixedThreadPool(TRAFFIC_CLIENTS);
        try {
            long start = System.nanoTime();
            List<Future<Integer>> sent = new ArrayList<>();
            for (int c = 0; c < TRAFFIC_CLIENTS; c++) {
                sent.add(clients.submit(() -> {
                    for (int i = 0; i < requestsPerClient; i++) {
                        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(producer + "/batch"))
                                .timeout(TIMEOUT).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(batch)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        if (answer.statusCode() != 200) {
                            throw new IllegalStateException("valid traffic answered " + answer.statusCode() + ": "
                                    + abbreviate(answer.body()));
                        }
                    }
                    return requestsPerClient * TRAFFIC_BATCH;
                }));
            }
            long messages = 0;
            for (Future<Integer> client : sent) {
                messages += client.get();
            }
            expected += messages;
            double rate = messages / ((System.nanoTime() - start) / 1e9);
            LOG.info("bad_input: valid traffic {} messages/s", Math.round(rate));
            return rate;
        } finally {
            clients.shutdownNow();
        }
    }

    /** Waits for the queue to drain; returns how many of the run's messages were processed. */
    private long awaitProcessed(Stack stack, String table) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (Sql.longOf(stack.connect(), "SELECT count(*) FROM " + table) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        try (Connection c = stack.connectResults()) {
            return ProcessedMessages.count(c, runId);
        }
    }

    private static String abbreviate(String text) {
        String flat = text.replace('\n', ' ');
        return flat.length() > 200 ? flat.substring(0, 200) + "..." : flat;
    }
}
