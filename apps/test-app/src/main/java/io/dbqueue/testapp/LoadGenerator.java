package io.dbqueue.testapp;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * Sends a run's messages to the producers: requests go round robin over {@code PRODUCERS_URLS}
 * with at most {@code concurrency} in flight, one message per {@code POST /} or
 * {@code messagesPerRequest} per {@code POST /batch}. Any answer but 2xx ends the run as failed:
 * a message is never sent twice, so the processed count stays exact.
 */
@Component
public class LoadGenerator implements DisposableBean {

    private static final Logger LOG = LoggerFactory.getLogger(LoadGenerator.class);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final TestAppProperties properties;
    private final ObjectMapper json;
    private final HttpClient client;
    private final ExecutorService senders = Executors.newCachedThreadPool(r -> new Thread(r, "load-generator"));

    public LoadGenerator(TestAppProperties properties, ObjectMapper json) {
        this.properties = properties;
        this.json = json;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Starts sending in the background; {@code onFailure} gets the reason when a request fails. */
    public void send(ActiveRun run, Consumer<String> onFailure) {
        senders.execute(() -> sendAll(run, onFailure));
    }

    private void sendAll(ActiveRun run, Consumer<String> onFailure) {
        int perRequest = properties.messagesPerRequest();
        List<URI> producers = properties.producersUrls();
        Semaphore inFlight = new Semaphore(properties.concurrency());
        long requests = (run.messageCount() + perRequest - 1) / perRequest;
        try {
            for (long r = 0; r < requests && !run.isOver(); r++) {
                int size = (int) Math.min(perRequest, run.messageCount() - r * perRequest);
                URI producer = producers.get((int) (r % producers.size()));
                HttpRequest request = request(producer, run.id(), size);
                inFlight.acquire();
                client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
                    inFlight.release();
                    if (error != null) {
                        onFailure.accept(producer + " could not be reached: " + error);
                    } else if (response.statusCode() / 100 != 2) {
                        onFailure.accept(producer + " answered " + response.statusCode() + " " + response.body());
                    } else {
                        run.sent(size);
                    }
                });
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            onFailure.accept("test-app is stopping");
        } catch (RuntimeException e) {
            LOG.error("run {}: sending stopped", run.id(), e);
            onFailure.accept("sending stopped: " + e);
        }
    }

    private HttpRequest request(URI producer, long runId, int size) {
        Object body;
        String path;
        if (properties.messagesPerRequest() == 1) {
            body = message(runId);
            path = "/";
        } else {
            List<Map<String, Object>> messages = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                messages.add(message(runId));
            }
            body = messages;
            path = "/batch";
        }
        return HttpRequest.newBuilder(producer.resolve(path)).timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body))).build();
    }

    /** The experiment's message: {@code {"message": "Hello <timestamp>", "testId": <run id>}}. */
    private static Map<String, Object> message(long runId) {
        return Map.of("message", "Hello " + System.currentTimeMillis(), "testId", runId);
    }

    @Override
    public void destroy() {
        senders.shutdownNow();
    }
}
