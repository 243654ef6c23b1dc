package io.dbqueue.spring.actuate;

import org.jspecify.annotations.Nullable;
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

    /** A JSON body is required (its {@code by} optional): see {@link DbQueueSchedulesEndpoint#change}. */
    @WriteOperation
    public WebEndpointResponse<Object> change(@Selector String name, @Selector String action, @Nullable String by) {
        return DbQueueWebEndpointExtension.answer(() -> endpoint.change(name, action, by));
    }
}
