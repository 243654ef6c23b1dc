package io.dbqueue.spring.actuate;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/** The endpoint {@code dbqueueschedules}'s writes over HTTP, refused as {@link DbQueueWebEndpointExtension} refuses. */
@EndpointWebExtension(endpoint = DbQueueSchedulesEndpoint.class)
public class DbQueueSchedulesWebEndpointExtension {

    private final DbQueueSchedulesEndpoint endpoint;

    public DbQueueSchedulesWebEndpointExtension(DbQueueSchedulesEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** One schedule; 404 with a problem when there is none of that name. */
    @ReadOperation
    public WebEndpointResponse<Object> schedule(@Selector String name) {
        return DbQueueWebEndpointExtension.answer(() -> endpoint.schedule(name), "no schedule " + name);
    }

    /** A JSON body is required (its {@code by} optional): see {@link DbQueueSchedulesEndpoint#change}. */
    @WriteOperation
    public WebEndpointResponse<Object> change(@Selector String name, @Selector String action, @Nullable String by) {
        return DbQueueWebEndpointExtension.answer(() -> endpoint.change(name, action, by));
    }
}
