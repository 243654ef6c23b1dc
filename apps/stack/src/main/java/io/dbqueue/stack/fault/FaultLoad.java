package io.dbqueue.stack.fault;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The clients of a fault scenario: threads that send batches of messages to producer-app at a
 * steady rate, each request with an Idempotency-Key, and send a request again (same key, after a
 * short pause) until it is answered with 2xx, as a client that must not lose a message would. Every
 * id answered is recorded; a request that failed at least once and was then answered
 * {@code Idempotent-Replayed} had been stored although its first answer never came.
 */
final class FaultLoad {

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final long RETRY_PAUSE_MILLIS = 200;

    private final Supplier<List<String>> producerUrls;
    private final int clients;
    private final int messagesPerRequest;
    private final long runId;
    private final long nanosBetweenRequests;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong failedAttempts = new AtomicLong();
    private final AtomicLong unanswered = new AtomicLong();
    private final AtomicLong storedThoughUnanswered = new AtomicLong();
    private final AtomicLong duplicateIds = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean sending = true;
    private volatile long giveUpAt = Long.MAX_VALUE;
    private volatile boolean givenUp;

    /** @param rate messages per second over all clients */
    FaultLoad(Supplier<List<String>> producerUrls, int clients, int messagesPerRequest, int rate, long runId) {
        this.producerUrls = producerUrls;
        this.clients = clients;
        this.messagesPerRequest = messagesPerRequest;
        this.runId = runId;
        this.nanosBetweenRequests = 1_000_000_000L * clients * messagesPerRequest / rate;
    }

    void start() {
        for (int i = 0; i < clients; i++) {
            int client = i;
            Thread thread = new Thread(() -> send(client), "fault-client-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    /** Stops new requests and waits for those unanswered to be answered, up to {@code timeout}. Returns whether all were. */
    boolean stop(Duration timeout) throws InterruptedException {
        sending = false;
        giveUpAt = System.nanoTime() + timeout.toNanos();
        boolean all = true;
        for (Thread thread : threads) {
            thread.join(Math.max(1, (giveUpAt - System.nanoTime()) / 1_000_000 + 1_000));
            all &= !thread.isAlive();
        }
        return all && !givenUp;
    }

    private void send(int client) {
        long next = System.nanoTime();
        for (long seq = 0; sending; seq++) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                sleepNanos(wait);
            }
            next += nanosBetweenRequests;
            // The run's id in the key: keys live for a day, and an external server keeps them across runs.
            if (!sendUntilAnswered(client, "run" + runId + "-c" + client + "-" + seq)) {
                givenUp = true;
                return;
            }
        }
    }

    /** Sends one request until it is answered; false if the clients gave up waiting first. */
    private boolean sendUntilAnswered(int client, String key) {
        String body = body(key);
        requests.incrementAndGet();
        boolean failedBefore = false;
        for (int attempt = 0; System.nanoTime() < giveUpAt; attempt++) {
            List<String> urls = producerUrls.get();
            String url = urls.get((client + attempt) % urls.size());
            try {
                HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(url + "/batch"))
                        .timeout(REQUEST_TIMEOUT).header("Content-Type", "application/json")
                        .header("Idempotency-Key", key).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200) {
                    for (JsonNode id : JSON.readTree(answer.body()).get("ids")) {
                        if (!acknowledged.add(id.asLong())) {
                            duplicateIds.incrementAndGet();
                        }
                    }
                    if (failedBefore) {
                        unanswered.incrementAndGet();
                        if (answer.headers().firstValue("Idempotent-Replayed").isPresent()) {
                            storedThoughUnanswered.incrementAndGet();
                        }
                    }
                    return true;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (Exception e) {
                // no answer: connection refused or reset, or a timeout; sent again below
            }
            failedBefore = true;
            failedAttempts.incrementAndGet();
            sleepNanos(RETRY_PAUSE_MILLIS * 1_000_000);
        }
        return false;
    }

    private String body(String key) {
        StringBuilder body = new StringBuilder("[");
        for (int i = 0; i < messagesPerRequest; i++) {
            body.append(i == 0 ? "" : ",").append("{\"message\":\"fault ").append(key).append('#').append(i)
                    .append("\",\"testId\":").append(runId).append('}');
        }
        return body.append(']').toString();
    }

    private static void sleepNanos(long nanos) {
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    Set<Long> acknowledged() {
        return acknowledged;
    }

    long acknowledgedCount() {
        return acknowledged.size();
    }

    long requests() {
        return requests.get();
    }

    long messagesSent() {
        return requests.get() * messagesPerRequest;
    }

    long failedAttempts() {
        return failedAttempts.get();
    }

    /** Requests that got no 2xx answer at first and were answered when sent again. */
    long unanswered() {
        return unanswered.get();
    }

    /** Of {@link #unanswered()}: those whose first sending had been stored (the repeat was answered as a replay). */
    long storedThoughUnanswered() {
        return storedThoughUnanswered.get();
    }

    /** Ids answered for two different requests: a message stored twice under different keys; must be 0. */
    long duplicateIds() {
        return duplicateIds.get();
    }
}
