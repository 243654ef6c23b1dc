package io.dbqueue.testapp;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Sends a run's messages to the producers: {@code concurrency} senders each send one request at a
 * time, round robin over {@code PRODUCERS_URLS}, one message per {@code POST /} or
 * {@code messagesPerRequest} per {@code POST /batch}. Any answer but 2xx ends the run as failed:
 * a message is never sent twice, so the processed count stays exact.
 */
@Component
public class LoadGenerator implements DisposableBean {

    private static final Logger LOG = LoggerFactory.getLogger(LoadGenerator.class);

    private final TestAppProperties properties;
    private final RestClient http;
    private final ExecutorService senders = Executors.newCachedThreadPool(r -> new Thread(r, "load-generator"));

    /** {@code http}: Spring Boot's builder, with its request factory, timeouts and observations. */
    public LoadGenerator(TestAppProperties properties, RestClient.Builder http) {
        this.properties = properties;
        this.http = http.build();
    }

    /** Starts sending in the background; {@code onFailure} gets the reason when a request fails. */
    public void send(ActiveRun run, Consumer<String> onFailure) {
        AtomicLong nextRequest = new AtomicLong();
        for (int i = 0; i < properties.concurrency(); i++) {
            senders.execute(() -> sendUntilDone(run, nextRequest, onFailure));
        }
    }

    private void sendUntilDone(ActiveRun run, AtomicLong nextRequest, Consumer<String> onFailure) {
        int perRequest = properties.messagesPerRequest();
        List<URI> producers = properties.producersUrls();
        long requests = (run.messageCount() + perRequest - 1) / perRequest;
        for (long r = nextRequest.getAndIncrement(); r < requests && !run.isOver(); r = nextRequest.getAndIncrement()) {
            if (Thread.currentThread().isInterrupted()) { // shutdownNow: a blocking HTTP call does not see it
                onFailure.accept("test-app is stopping");
                return;
            }
            int size = (int) Math.min(perRequest, run.messageCount() - r * perRequest);
            URI producer = producers.get((int) (r % producers.size()));
            try {
                post(producer, run.id(), size);
                run.sent(size);
            } catch (RestClientResponseException e) {
                onFailure.accept(producer + " answered " + e.getStatusCode().value() + " " + e.getResponseBodyAsString());
                return;
            } catch (ResourceAccessException e) {
                onFailure.accept(producer + " could not be reached: " + e.getMessage());
                return;
            } catch (RuntimeException e) {
                LOG.error("run {}: sending stopped", run.id(), e);
                onFailure.accept("sending stopped: " + e);
                return;
            }
        }
    }

    private void post(URI producer, long runId, int size) {
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
        http.post().uri(producer.resolve(path)).contentType(MediaType.APPLICATION_JSON).body(body).retrieve()
                .onStatus(HttpStatusCode::is3xxRedirection, (request, response) -> { // not followed for a POST
                    throw new RestClientResponseException("a redirect stored nothing", response.getStatusCode(),
                            response.getStatusText(), response.getHeaders(), null, null);
                })
                .toBodilessEntity();
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
