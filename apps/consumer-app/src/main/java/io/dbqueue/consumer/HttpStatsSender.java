package io.dbqueue.consumer;

import org.springframework.http.HttpStatusCode;
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
     * Throws when test-app does not answer 2xx, so that the batch's messages are not finished; a refusal of the
     * report itself, which the same report would get again, as {@link StatsRefusedException}. A redirect is not
     * followed for a POST, and stored nothing: sent again, as a 5xx is.
     */
    @Override
    public void send(List<Stat> stats) throws StatsRefusedException {
        try {
            http.post().uri(statsUri).contentType(MediaType.APPLICATION_JSON).body(stats).retrieve()
                    .onStatus(HttpStatusCode::is3xxRedirection, (request, response) -> {
                        throw new IllegalStateException("test-app answered " + response.getStatusCode().value()
                                + " (a redirect) to the report; it is sent again");
                    })
                    .toBodilessEntity();
        } catch (HttpClientErrorException e) {
            if (!refusesTheReport(e.getStatusCode().value())) {
                throw e; // a wrong URL (404), a proxy's 429: sent again, the messages wait
            }
            throw new StatsRefusedException("test-app answered " + e.getStatusCode().value() + ": "
                    + e.getResponseBodyAsString(), e);
        }
    }

    /** test-app's answers to a report it cannot store: bad content (400, 422) or a body too long (413). */
    static boolean refusesTheReport(int status) {
        return status == 400 || status == 413 || status == 422;
    }

    @Override
    public String toString() {
        return "HTTP " + statsUri;
    }
}
