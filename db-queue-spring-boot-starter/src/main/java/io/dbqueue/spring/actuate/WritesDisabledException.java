package io.dbqueue.spring.actuate;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

/**
 * A write operation of the endpoint {@code dbqueue} or {@code dbqueueschedules} while {@code dbq.endpoint.write-enabled}
 * is off: 403 over HTTP.
 */
public class WritesDisabledException extends InvalidEndpointRequestException {

    /** {@code endpoint}: the id of the endpoint refusing the write. */
    public WritesDisabledException(String endpoint) {
        super(reason(endpoint), reason(endpoint));
    }

    private static String reason(String endpoint) {
        return "write operations of the " + endpoint + " endpoint are disabled; set dbq.endpoint.write-enabled=true"
                + " (and secure the endpoint) to enable them";
    }
}
