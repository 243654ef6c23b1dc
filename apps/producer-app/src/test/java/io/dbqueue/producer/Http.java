package io.dbqueue.producer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Posts JSON to the application under test. */
final class Http {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private final int port;

    Http(int port) {
        this.port = port;
    }

    HttpResponse<String> post(String path, String body) throws Exception {
        return send(request(path, body));
    }

    /** A POST with an Idempotency-Key header. */
    HttpResponse<String> post(String path, String body, String idempotencyKey) throws Exception {
        return send(request(path, body).header("Idempotency-Key", idempotencyKey));
    }

    private HttpRequest.Builder request(String path, String body) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
