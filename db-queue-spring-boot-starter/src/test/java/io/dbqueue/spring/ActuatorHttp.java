package io.dbqueue.spring;

import io.dbqueue.postgres.PostgresServer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/** An application on a free port and the test database, and an HTTP client of one of its Actuator endpoints. */
final class ActuatorHttp implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final ConfigurableApplicationContext app;
    private final String endpoint;

    private ActuatorHttp(ConfigurableApplicationContext app, String endpoint) {
        this.app = app;
        this.endpoint = endpoint;
    }

    /** Starts {@code application} with {@code endpoint} exposed and {@code properties} besides the database's. */
    static ActuatorHttp start(Class<?> application, String endpoint, String... properties) {
        PostgresServer server = PostgresServer.shared();
        List<String> all = new ArrayList<>(List.of("server.port=0", "spring.main.banner-mode=off",
                "spring.datasource.url=" + StarterTestSupport.jdbcUrl(),
                "spring.datasource.username=" + server.user(), "spring.datasource.password=" + server.password(),
                "management.endpoints.web.exposure.include=" + endpoint));
        all.addAll(List.of(properties));
        return new ActuatorHttp(new SpringApplicationBuilder(application).properties(all.toArray(String[]::new)).run(),
                endpoint);
    }

    ConfigurableApplicationContext app() {
        return app;
    }

    HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A POST with no body and no content type: what a page of another site may send without a preflight. */
    HttpResponse<String> postWithoutBody(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String json) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + app.getEnvironment().getProperty("local.server.port") + "/actuator/"
                + endpoint + path);
    }

    @Override
    public void close() {
        app.close();
    }
}
