package io.dbqueue.spring.dashboard;

import org.springframework.http.MediaType;
import org.springframework.util.StreamUtils;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The dashboard: one static page with its script and style inline, reading and writing through the endpoint
 * {@code dbqueue}, so it downloads nothing and needs no build step. The endpoint's URL is written into the page.
 */
final class DashboardPage {

    private static final String TEMPLATE = "dashboard.html";
    private static final String ENDPOINT_PLACEHOLDER = "@ENDPOINT@";

    private final String html;

    DashboardPage(String endpoint) {
        this.html = read().replace(ENDPOINT_PLACEHOLDER, jsString(endpoint));
    }

    String html() {
        return html;
    }

    RouterFunction<ServerResponse> route(String path) {
        return RouterFunctions.route().GET(path, request -> ServerResponse.ok()
                .contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
                .header("Cache-Control", "no-store").body(html)).build();
    }

    /** {@code value} as a JavaScript string literal that cannot close the script element it stands in. */
    static String jsString(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static String read() {
        try (InputStream in = DashboardPage.class.getResourceAsStream(TEMPLATE)) {
            if (in == null) {
                throw new IllegalStateException("the dashboard page " + TEMPLATE + " is missing from the starter's jar");
            }
            return StreamUtils.copyToString(in, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
