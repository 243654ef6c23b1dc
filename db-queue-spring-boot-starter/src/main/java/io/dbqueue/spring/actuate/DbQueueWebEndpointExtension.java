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

    @WriteOperation
    public WebEndpointResponse<Object> change(@Selector String queue, @Selector String action, @Nullable String ids,
                                              @Nullable Boolean all, @Nullable Long id, @Nullable String key,
                                              @Nullable String dueAt) {
        return answer(() -> endpoint.change(queue, action, ids, all, id, key, dueAt));
    }

    @ReadOperation
    public WebEndpointResponse<Object> view(@Selector String queue, @Selector String view, @Nullable Long id,
                                            @Nullable String key, @Nullable Long after, @Nullable Integer limit) {
        return answer(() -> endpoint.view(queue, view, id, key, after, limit));
    }

    /**
     * What {@code operation} returns (404 for null), or its refusal as a problem: 403 while writes are disabled, 400
     * for bad input.
     */
    static WebEndpointResponse<Object> answer(Supplier<@Nullable Object> operation) {
        try {
            Object result = operation.get();
            return result == null ? new WebEndpointResponse<>(404) : new WebEndpointResponse<>(result);
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
