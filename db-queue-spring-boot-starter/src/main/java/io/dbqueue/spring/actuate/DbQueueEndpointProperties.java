package io.dbqueue.spring.actuate;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code dbq.endpoint.*} properties of the Actuator endpoint {@code dbqueue}.
 *
 * @param writeEnabled  Whether the endpoint's write operations (pause, resume, requeue, delete, cancel,
 *                      reschedule) run; off, they are refused (403 Forbidden over HTTP). Secure the endpoint before
 *                      turning this on.
 * @param recentMinutes Over how many of the last minutes (1 to 15) the endpoint reports each queue's finished and
 *                      failed tasks in this instance.
 */
@ConfigurationProperties("dbq.endpoint")
public record DbQueueEndpointProperties(@DefaultValue("false") boolean writeEnabled,
                                        @DefaultValue("5") int recentMinutes) {
}
