package io.dbqueue.producer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

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

    /**
     * The whole answer, head and body, to a request written byte for byte: {@code method}, {@code
     * target} and header lines (each ending in CRLF) as given, which HttpClient would refuse to send (control characters,
     * dot segments) or alter. The connection is closed after it.
     */
    String raw(String method, String target, String headerLines, String body) throws IOException {
        byte[] content = body.getBytes(StandardCharsets.UTF_8);
        String head = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + "Content-Length: " + content.length + "\r\n" + headerLines + "\r\n";
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.write(content);
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
