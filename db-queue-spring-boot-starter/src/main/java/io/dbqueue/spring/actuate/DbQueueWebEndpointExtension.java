package io.dbqueue.spring.actuate;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;
import org.springframework.util.MimeType;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The endpoint {@code dbqueue}'s writes and views of a queue over HTTP: a refusal is answered with an {@code application/problem+json}
 * body that says why (Spring Boot's own error body leaves the reason out by default), 403 while writes are disabled,
 * 400 for bad input.
 */
@EndpointWebExtension(endpoint = DbQueueEndpoint.class)
public class DbQueueWebEndpointExtension {

    private static final MimeType PROBLEM = MimeType.valueOf("application/problem+json");

    private final DbQueueEndpoint endpoint;

    public DbQueueWebEndpointExtension(DbQueueEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * The fields arrive as text and are read here, so that one of the wrong type is refused with a problem that names
     * it: typed parameters are converted by Actuator before this method runs, and a failure there was a 400 without
     * a body.
     */
    @WriteOperation
    public WebEndpointResponse<Object> change(@Selector String queue, @Selector String action, @Nullable String ids,
                                              @Nullable String all, @Nullable String id, @Nullable String key,
                                              @Nullable String dueAt) {
        return answer(() -> endpoint.change(queue, action, ids, flag("all", all), number("id", id, Long::valueOf), key,
                dueAt));
    }

    /** One queue; 404 with a problem naming the configured queues when it is not one of them. */
    @ReadOperation
    public WebEndpointResponse<Object> queue(@Selector String queue) {
        return answer(() -> endpoint.queue(queue), endpoint.notFound(queue, "no queue " + queue));
    }

    @ReadOperation
    public WebEndpointResponse<Object> view(@Selector String queue, @Selector String view, @Nullable String id,
                                            @Nullable String key, @Nullable String after, @Nullable String limit) {
        return answer(() -> endpoint.view(queue, view, number("id", id, Long::valueOf), key,
                number("after", after, Long::valueOf), number("limit", limit, Integer::valueOf)),
                endpoint.notFound(queue, "no task " + (id != null ? id : "of key " + key) + " in queue " + queue));
    }

    private static <T> @Nullable T number(String field, @Nullable String value, Function<String, T> parse) {
        try {
            return value == null ? null : parse.apply(value.strip());
        } catch (NumberFormatException e) {
            throw DbQueueEndpoint.refused(field + " must be a whole number, was " + value);
        }
    }

    private static @Nullable Boolean flag(String field, @Nullable String value) {
        if (value == null) {
            return null;
        }
        return switch (value.strip()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw DbQueueEndpoint.refused(field + " must be true or false, was " + value);
        };
    }

    /**
     * What {@code operation} returns (404 for null, with a problem), or its refusal as a problem: 403 while writes are
     * disabled, 400 for bad input.
     */
    static WebEndpointResponse<Object> answer(Supplier<@Nullable Object> operation) {
        return answer(operation, "not found");
    }

    /** As {@link #answer(Supplier)}, a null result a 404 whose problem says {@code notFound}. */
    static WebEndpointResponse<Object> answer(Supplier<@Nullable Object> operation, String notFound) {
        try {
            Object result = operation.get();
            return result == null ? problem(404, "Not Found", notFound) : new WebEndpointResponse<>(result);
        } catch (WritesDisabledException e) {
            return problem(403, "Forbidden", e.getReason());
        } catch (InvalidEndpointRequestException e) {
            return problem(400, "Bad Request", e.getReason());
        }
    }

    private static WebEndpointResponse<Object> problem(int status, String title, String detail) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("title", title);
        body.put("status", status);
        body.put("detail", detail);
        return new WebEndpointResponse<>(body, status, PROBLEM);
    }
}
