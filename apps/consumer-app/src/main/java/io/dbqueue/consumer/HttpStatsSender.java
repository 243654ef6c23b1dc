package io.dbqueue.consumer;

import tools.jackson.databind.ObjectMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/** Posts each batch as a JSON array to test-app's {@code /stats}. Needs no broker. */
final class HttpStatsSender implements StatsSender {

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final URI statsUri;
    private final ObjectMapper json;

    HttpStatsSender(URI testAppUrl, ObjectMapper json) {
        this.statsUri = testAppUrl.resolve("/stats");
        this.json = json;
    }

    @Override
    public void send(List<Stat> stats) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(statsUri).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(stats))).build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException(statsUri + " answered " + response.statusCode() + " " + response.body());
        }
    }

    @Override
    public String toString() {
        return "HTTP " + statsUri;
    }
}
