package io.dbqueue.spring.actuate;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

/** A write operation of the endpoint {@code dbqueue} while {@code dbq.endpoint.write-enabled} is off: 403 over HTTP. */
public class WritesDisabledException extends InvalidEndpointRequestException {

    public WritesDisabledException() {
        this("write operations of the dbqueue endpoint are disabled; set dbq.endpoint.write-enabled=true"
                + " (and secure the endpoint) to enable them");
    }

    private WritesDisabledException(String reason) {
        super(reason, reason);
    }
}
