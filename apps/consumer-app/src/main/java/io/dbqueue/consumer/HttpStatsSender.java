package io.dbqueue.consumer;

import org.springframework.http.MediaType;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;

import java.net.URI;
import java.util.List;

/** Posts each batch as a JSON array to test-app's {@code /stats}. Needs no broker. */
final class HttpStatsSender implements StatsSender {

    private final RestClient http;
    private final URI statsUri;

    HttpStatsSender(RestClient http, URI testAppUrl) {
        this.http = http;
        this.statsUri = testAppUrl.resolve("/stats");
    }

    /**
     * Throws when test-app does not answer 2xx, so that the batch's messages are not finished; a 4xx, which the same
     * report would get again, as {@link StatsRefusedException}.
     */
    @Override
    public void send(List<Stat> stats) throws StatsRefusedException {
        try {
            http.post().uri(statsUri).contentType(MediaType.APPLICATION_JSON).body(stats).retrieve().toBodilessEntity();
        } catch (HttpClientErrorException e) {
            throw new StatsRefusedException("test-app answered " + e.getStatusCode().value() + ": "
                    + e.getResponseBodyAsString(), e);
        }
    }

    @Override
    public String toString() {
        return "HTTP " + statsUri;
    }
}
