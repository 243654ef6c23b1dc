package io.dbqueue.bench.driver.postgres;

import io.dbqueue.bench.driver.StopSignal;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** test-app's HTTP API: start a run of N messages, and wait for its result. */
final class TestAppClient {

    /** As Jackson 2 read them: content after the answer's JSON value is ignored. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    TestAppClient(String baseUrl) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl : baseUrl + "/";
    }

    /**
     * Runs {@code messages} through the stack and returns test-app's result of the run (status
     * COMPLETE). While the run is in progress it polls the list of runs, which reads one row per run:
     * a run's own page computes its series from every statistic stored so far, and polling it would
     * take database time from the run being measured.
     */
    JsonNode run(long messages, Duration timeout, StopSignal stop) throws IOException, InterruptedException {
        JsonNode started = send(HttpRequest.newBuilder(URI.create(baseUrl + "?testDataCount=" + messages))
                .POST(HttpRequest.BodyPublishers.noBody()));
        long id = started.get("id").asLong();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode result = listed(id);
            String status = result.path("status").asString();
            if (status.equals("COMPLETE")) {
                return send(HttpRequest.newBuilder(URI.create(baseUrl + id)).GET());
            }
            if (status.equals("FAILED")) {
                throw new IllegalStateException("test-app run " + id + " failed: " + result);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("test-app run " + id + " of " + messages
                        + " messages did not complete within " + timeout + ": " + result.path("processedCount")
                        + " processed");
            }
            if (stop.await(POLL_NANOS)) {
                throw new IllegalStateException("stopped while test-app run " + id + " was in progress");
            }
        }
    }

    private JsonNode listed(long id) throws IOException, InterruptedException {
        for (JsonNode run : send(HttpRequest.newBuilder(URI.create(baseUrl)).GET())) {
            if (run.path("id").asLong() == id) {
                return run;
            }
        }
        throw new IOException("test-app does not list run " + id);
    }

    private JsonNode send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("test-app answered " + response.statusCode() + " to " + response.request().uri()
                    + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }
}
