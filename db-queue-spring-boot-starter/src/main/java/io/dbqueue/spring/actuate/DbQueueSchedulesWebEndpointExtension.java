package io.dbqueue.spring.actuate;

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

    @WriteOperation
    public WebEndpointResponse<Object> change(@Selector String name, @Selector String action) {
        return DbQueueWebEndpointExtension.answer(() -> endpoint.change(name, action));
    }
}
