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

    private final String template;
    private final String endpoint;
    private final boolean underContextPath;

    /**
     * The page reading {@code endpoint}: a URL as it is, or with {@code underContextPath} a path on the application's
     * server, which the page's request's context path is put before.
     */
    DashboardPage(String endpoint, boolean underContextPath) {
        this.template = read();
        this.endpoint = endpoint;
        this.underContextPath = underContextPath;
    }

    /** The page as served to a request under {@code contextPath} ("" at the root). */
    String html(String contextPath) {
        return template.replace(ENDPOINT_PLACEHOLDER, jsString(underContextPath ? contextPath + endpoint : endpoint));
    }

    RouterFunction<ServerResponse> route(String path) {
        return RouterFunctions.route().GET(path, request -> ServerResponse.ok()
                .contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
                .header("Cache-Control", "no-store").body(html(request.requestPath().contextPath().value()))).build();
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
